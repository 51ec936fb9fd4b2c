export { RefundsModule } from './refunds.module';
export { RefundsService, type NewRefund } from './refunds.service';
export { toRefundResponse } from './refund.mapper';
