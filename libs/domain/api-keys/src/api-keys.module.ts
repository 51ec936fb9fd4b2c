import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '@gateway/domain/audit';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { IpAllowlistEntryEntity } from './ip-allowlist-entry.entity';
import { IpAllowlistRepository } from './ip-allowlist.repository';
import { IpAllowlistService } from './ip-allowlist.service';
import { KeyAuthenticator } from './key-authenticator';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity, IpAllowlistEntryEntity]), AuditModule],
  providers: [ApiKeysRepository, IpAllowlistRepository, ApiKeysService, IpAllowlistService, KeyAuthenticator],
  exports: [ApiKeysService, IpAllowlistService, KeyAuthenticator],
})
export class ApiKeysModule {}
