import { Module } from '@nestjs/common';
import { DisputesModule } from '@gateway/domain/disputes';
import { InvoicesModule } from '@gateway/domain/invoices';
import { PaymentIntentsModule } from '@gateway/domain/payment-intents';
import { PaymentsModule } from '@gateway/domain/payments';
import { SubscriptionsModule } from '@gateway/domain/subscriptions';
import { TestClocksModule } from '@gateway/domain/test-clocks';
import { TimeRulesService } from './time-rules.service';

/** The gateway's time-driven rules, run for one tenant at its test clock's time (no tables of its own). */
@Module({
  imports: [TestClocksModule, PaymentsModule, PaymentIntentsModule, DisputesModule, SubscriptionsModule, InvoicesModule],
  providers: [TimeRulesService],
  exports: [TimeRulesService],
})
export class TimeRulesModule {}
