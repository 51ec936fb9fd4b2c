import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeysService } from './api-keys.service';
import { IpAllowlistEntryEntity } from './ip-allowlist-entry.entity';
import { IpAllowlistService } from './ip-allowlist.service';
import { KeyAuthenticator } from './key-authenticator';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity, IpAllowlistEntryEntity])],
  providers: [ApiKeysService, IpAllowlistService, KeyAuthenticator],
  exports: [ApiKeysService, IpAllowlistService, KeyAuthenticator],
})
export class ApiKeysModule {}
