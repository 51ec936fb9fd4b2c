import { Module } from '@nestjs/common';
import { IdentityModule } from '@gateway/domain/identity';
import { PortalHousekeepingJob } from './portal-housekeeping.job';

@Module({
  imports: [IdentityModule],
  providers: [PortalHousekeepingJob],
})
export class PortalHousekeepingModule {}
