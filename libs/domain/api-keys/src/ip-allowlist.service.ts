import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Clock, DomainError, notifyAccessChanged } from '@gateway/platform';
import { Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { IpAllowlistEntryEntity } from './ip-allowlist-entry.entity';
import { canonicalRule, parseRule } from './ip-rules';
import { KeyAuthenticator } from './key-authenticator';

export interface IpAllowlistEntry {
  id: string;
  cidr: string;
  apiKeyId: string | null;
  label: string | null;
  createdAt: Date;
}

/** A developer's IP allowlist: empty = every address; entries may be limited to one key. */
@Injectable()
export class IpAllowlistService {
  constructor(
    @InjectRepository(IpAllowlistEntryEntity) private readonly entries: Repository<IpAllowlistEntryEntity>,
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    private readonly clock: Clock,
    private readonly authenticator: KeyAuthenticator,
  ) {}

  async list(developerId: string): Promise<IpAllowlistEntry[]> {
    return this.entries.find({ where: { developerId }, order: { createdAt: 'ASC' } });
  }

  /** @throws validation_error (not an IP or CIDR), api_key_not_found, conflict (already listed) */
  async add(developerId: string, cidr: string, keyId?: string, label?: string): Promise<IpAllowlistEntry> {
    const rule = parseRule(cidr);
    if (!rule) throw new DomainError('validation_error', 'The request is invalid.', { cidr: ['must be an IPv4 or IPv6 address or CIDR range'] });
    if (keyId && !(await this.keys.existsBy({ id: keyId, developerId }))) {
      throw new DomainError('api_key_not_found', 'No such API key.');
    }
    return this.entries.manager.transaction(async (m) => {
      const inserted = await m
        .createQueryBuilder()
        .insert()
        .into(IpAllowlistEntryEntity)
        .values({ developerId, apiKeyId: keyId ?? null, cidr: canonicalRule(rule), label: label ?? null, createdAt: this.clock.now() })
        .orIgnore()
        .returning('*')
        .execute();
      if (!inserted.raw.length) throw new DomainError('conflict', 'That address range is already on the allowlist.');
      await notifyAccessChanged(m, `allowlist:${developerId}`);
      this.authenticator.invalidate();
      return m.findOneByOrFail(IpAllowlistEntryEntity, { id: (inserted.raw as Array<{ id: string }>)[0].id });
    });
  }

  /** @throws not_found for an entry that is not the developer's */
  async remove(developerId: string, id: string): Promise<void> {
    await this.entries.manager.transaction(async (m) => {
      const result = /^[0-9a-f-]{36}$/i.test(id) ? await m.delete(IpAllowlistEntryEntity, { id, developerId }) : { affected: 0 };
      if (!result.affected) throw new DomainError('not_found', 'No such allowlist entry.');
      await notifyAccessChanged(m, `allowlist:${developerId}`);
    });
    this.authenticator.invalidate();
  }
}
