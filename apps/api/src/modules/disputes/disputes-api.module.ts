import { Module } from '@nestjs/common';
import { DisputesModule } from '@gateway/domain/disputes';
import { DisputesSandboxController } from './disputes-sandbox.controller';
import { DisputesController } from './disputes.controller';

@Module({ imports: [DisputesModule], controllers: [DisputesController, DisputesSandboxController] })
export class DisputesApiModule {}
