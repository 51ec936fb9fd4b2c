import { Module } from '@nestjs/common';
import { AnalyticsModule } from '@gateway/domain/analytics';
import { PaymentsModule } from '@gateway/domain/payments';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsPresenter } from './analytics.presenter';

/** The merchants' analytics routes; the presenter is shared with the portal's. */
@Module({ imports: [AnalyticsModule, PaymentsModule], controllers: [AnalyticsController], providers: [AnalyticsPresenter], exports: [AnalyticsPresenter] })
export class AnalyticsApiModule {}
