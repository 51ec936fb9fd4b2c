export { SubaccountsModule } from './subaccounts.module';
export { SubaccountsService, type NewSubaccount, type SubaccountListFilter } from './subaccounts.service';
export { toSubaccountResponse } from './subaccount.mapper';
export type { SubaccountEntity as Subaccount } from './subaccount.entity';
