export { VirtualAccountsModule } from './virtual-accounts.module';
export { VirtualAccountsService, type SandboxDeposit } from './virtual-accounts.service';
export { VirtualAccountDepositsService, type DepositOutcome } from './virtual-account-deposits.service';
export { toAdminUnmatchedDepositResponse, toVirtualAccountDepositResponse, toVirtualAccountResponse } from './virtual-account.mapper';
export type { VirtualAccountDepositEntity as VirtualAccountDeposit, VirtualAccountEntity as VirtualAccount } from './virtual-account.entities';
