import { Module } from '@nestjs/common';
import { VirtualAccountsModule } from '@gateway/domain/virtual-accounts';
import { SandboxVirtualAccountsController } from './sandbox-virtual-accounts.controller';
import { VirtualAccountsController } from './virtual-accounts.controller';

@Module({ imports: [VirtualAccountsModule], controllers: [VirtualAccountsController, SandboxVirtualAccountsController] })
export class VirtualAccountsApiModule {}
