import { Module } from '@nestjs/common';
import { LedgerModule } from '@gateway/domain/ledger';
import { WebhooksModule } from '@gateway/domain/webhooks';
import { RequestsController } from './requests.controller';
import { RequestTraceService } from './request-trace.service';

/**
 * Request traces for merchants' keys; the service is shared with the portal's route.
 * RequestLogsService comes from the app root's global RequestLogsModule.
 */
@Module({ imports: [LedgerModule, WebhooksModule], controllers: [RequestsController], providers: [RequestTraceService], exports: [RequestTraceService] })
export class RequestsApiModule {}
