import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeveloperEntity } from './developer.entity';
import { DeveloperFeeOverrideEntity } from './developer-fee-override.entity';
import { DeveloperFeeOverrideChangeEntity } from './developer-fee-override-change.entity';
import { DevelopersRepository } from './developers.repository';
import { DevelopersService } from './developers.service';

@Module({
  imports: [TypeOrmModule.forFeature([DeveloperEntity, DeveloperFeeOverrideEntity, DeveloperFeeOverrideChangeEntity])],
  providers: [DevelopersRepository, DevelopersService],
  exports: [DevelopersService],
})
export class DevelopersModule {}
