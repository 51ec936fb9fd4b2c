import { Injectable } from '@nestjs/common';
import { type AuditActor, AuditService, SYSTEM_ACTOR } from '@gateway/domain/audit';
import { Clock, DomainError, notifyAccessChanged } from '@gateway/platform';
import { DataSource } from 'typeorm';
import { ApiKeysRepository } from './api-keys.repository';
import { IpAllowlistRepository } from './ip-allowlist.repository';
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
    private readonly entries: IpAllowlistRepository,
    private readonly keys: ApiKeysRepository,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly authenticator: KeyAuthenticator,
    private readonly audit: AuditService,
  ) {}

  async list(developerId: string): Promise<IpAllowlistEntry[]> {
    return this.entries.listOfDeveloper(developerId);
  }

  /** @throws validation_error (not an IP or CIDR), api_key_not_found, conflict (already listed) */
  async add(developerId: string, cidr: string, keyId?: string, label?: string, actor: AuditActor = SYSTEM_ACTOR): Promise<IpAllowlistEntry> {
    const rule = parseRule(cidr);
    if (!rule) throw new DomainError('validation_error', 'The request is invalid.', { cidr: ['must be an IPv4 or IPv6 address or CIDR range'] });
    if (keyId && !(await this.keys.existsOfDeveloper(developerId, keyId))) {
      throw new DomainError('api_key_not_found', 'No such API key.');
    }
    return this.dataSource.transaction(async (m) => {
      const id = await this.entries.insertIfAbsent(m, { developerId, apiKeyId: keyId ?? null, cidr: canonicalRule(rule), label: label ?? null, createdAt: this.clock.now() });
      if (!id) throw new DomainError('conflict', 'That address range is already on the allowlist.');
      await notifyAccessChanged(m, `allowlist:${developerId}`);
      this.authenticator.invalidate();
      const entry = await this.entries.findByIdOrFail(m, id);
      await this.audit.record(m, { actor, action: 'ip_allowlist.changed', developerId, target: { type: 'ip_allowlist_entry', id }, before: null, after: entryState(entry) });
      return entry;
    });
  }

  /** @throws not_found for an entry that is not the developer's */
  async remove(developerId: string, id: string, actor: AuditActor = SYSTEM_ACTOR): Promise<void> {
    const entry = (await this.entries.listOfDeveloper(developerId)).find((e) => e.id === id);
    await this.dataSource.transaction(async (m) => {
      const deleted = /^[0-9a-f-]{36}$/i.test(id) && (await this.entries.delete(m, developerId, id));
      if (!deleted) throw new DomainError('not_found', 'No such allowlist entry.');
      await notifyAccessChanged(m, `allowlist:${developerId}`);
      await this.audit.record(m, { actor, action: 'ip_allowlist.changed', developerId, target: { type: 'ip_allowlist_entry', id }, before: entry ? entryState(entry) : null, after: null });
    });
    this.authenticator.invalidate();
  }
}

function entryState(entry: IpAllowlistEntry): Record<string, unknown> {
  return { cidr: entry.cidr, api_key_id: entry.apiKeyId, label: entry.label };
}
