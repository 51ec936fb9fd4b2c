import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { ApiKeyKind, Mode, Scope } from '@gateway/contracts';
import type { DeveloperContext } from '@gateway/platform';
import { type EntityManager, IsNull, type Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';

/** The columns of a new key; the rest (id, created_at, last use, revocation) the database fills in. */
export type NewApiKeyRow = Pick<ApiKeyEntity, 'developerId' | 'mode' | 'kind' | 'keyHash' | 'keyHint' | 'name' | 'scopes' | 'expiresAt'>;

/** A key with its developer's verification and allowlist, as the authenticator reads it in one query. */
export interface KeyAccessRecord {
  keyId: string;
  developerId: string;
  mode: Mode;
  kind: ApiKeyKind;
  scopes: Scope[];
  expiresAt: Date | null;
  emailVerified: boolean;
  identityVerified: boolean;
  /** The account is suspended: every one of its keys is refused. */
  accountSuspended: boolean;
  /** The developer-wide entries plus this key's own, as `address/bits` text. */
  allowlist: string[];
}

/** When and from where a key was last used. */
export interface KeyLastUse {
  keyId: string;
  at: Date;
  ip: string;
}

interface KeyAccessRow {
  id: string;
  developer_id: string;
  mode: Mode;
  kind: ApiKeyKind;
  scopes: Scope[];
  expires_at: Date | null;
  email_verified: boolean;
  identity_verified: boolean;
  account_suspended: boolean;
  allowlist: string[];
}

// Authentication resolves the key, its developer's verification and the allowlist in one round trip.
const KEY_ACCESS_SQL = `SELECT k.id, k.developer_id, k.mode, k.kind, k.scopes, k.expires_at,
              d.email_verified_at IS NOT NULL AS email_verified,
              d.identity_verified_at IS NOT NULL AS identity_verified,
              d.suspended_at IS NOT NULL AS account_suspended,
              COALESCE(ARRAY(SELECT host(a.cidr) || '/' || masklen(a.cidr) FROM ip_allowlist_entries a
                             WHERE a.developer_id = k.developer_id AND (a.api_key_id IS NULL OR a.api_key_id = k.id)), '{}') AS allowlist
         FROM api_keys k JOIN developers d ON d.id = k.developer_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`;

/** Only moves last use forward: a late flush from another instance never overwrites a newer use. */
const RECORD_LAST_USE_SQL = `UPDATE api_keys k SET last_used_at = u.at, last_used_ip = u.ip
           FROM unnest($1::uuid[], $2::timestamptz[], $3::text[]) AS u(id, at, ip)
          WHERE k.id = u.id AND (k.last_used_at IS NULL OR k.last_used_at < u.at)`;

/**
 * API key rows. Portal reads of one key take a DeveloperContext; revocation, the allowlist and the
 * key list work per developer across both modes (as their callers do); authentication and
 * operators know a hash or an id only.
 */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>) {}

  /** Inserts a new key and returns it as stored. */
  insert(row: NewApiKeyRow, manager: EntityManager = this.keys.manager): Promise<ApiKeyEntity> {
    const keys = manager.getRepository(ApiKeyEntity);
    return keys.save(keys.create(row));
  }

  /** Writes the key's changed columns (revocation, expiry, scopes). */
  async save(manager: EntityManager, key: ApiKeyEntity): Promise<void> {
    await manager.save(key);
  }

  /** The developer's key with this id, in either mode; null when missing or another developer's. */
  findOfDeveloper(developerId: string, keyId: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ id: keyId, developerId });
  }

  /** Whether the developer has a key with this id (in either mode). */
  existsOfDeveloper(developerId: string, keyId: string): Promise<boolean> {
    return this.keys.existsBy({ id: keyId, developerId });
  }

  /** The tenant's key with this id; null when missing, another developer's or of the other mode. */
  find(ctx: DeveloperContext, keyId: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ id: keyId, developerId: ctx.developerId, mode: ctx.mode });
  }

  /** find, with the key's row locked until the transaction ends. */
  lock(manager: EntityManager, ctx: DeveloperContext, keyId: string): Promise<ApiKeyEntity | null> {
    return manager.findOne(ApiKeyEntity, { where: { id: keyId, developerId: ctx.developerId, mode: ctx.mode }, lock: { mode: 'pessimistic_write' } });
  }

  /** Any developer's key by id; for operators only. */
  findById(keyId: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ id: keyId });
  }

  /** The unrevoked key with this SHA-256 hash (expired or not). */
  findUnrevokedByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ keyHash, revokedAt: IsNull() });
  }

  /** The developer's keys, newest first; of one mode when given, else of both. */
  listOfDeveloper(developerId: string, mode?: Mode): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: { developerId, ...(mode ? { mode } : {}) }, order: { createdAt: 'DESC' } });
  }

  /** The unrevoked key with this hash, with what the guards need about it (expired or not); null when none. */
  async findAccess(keyHash: string): Promise<KeyAccessRecord | null> {
    const rows: KeyAccessRow[] = await this.keys.manager.query(KEY_ACCESS_SQL, [keyHash]);
    const row = rows[0];
    return row
      ? {
          keyId: row.id,
          developerId: row.developer_id,
          mode: row.mode,
          kind: row.kind,
          scopes: row.scopes,
          expiresAt: row.expires_at,
          emailVerified: row.email_verified,
          identityVerified: row.identity_verified,
          accountSuspended: row.account_suspended,
          allowlist: row.allowlist,
        }
      : null;
  }

  /** Records the last use of many keys in one UPDATE. */
  async recordLastUse(uses: KeyLastUse[]): Promise<void> {
    await this.keys.manager.query(RECORD_LAST_USE_SQL, [uses.map((u) => u.keyId), uses.map((u) => u.at), uses.map((u) => u.ip)]);
  }
}
