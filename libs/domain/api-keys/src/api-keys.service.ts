import { Injectable } from '@nestjs/common';
import { type ApiKeyKind, isScope, type Mode, type Scope } from '@gateway/contracts';
import { type AuditActor, AuditService, SYSTEM_ACTOR } from '@gateway/domain/audit';
import { Clock, type DeveloperContext, DomainError, notifyAccessChanged, randomToken, sha256Hex } from '@gateway/platform';
import { DataSource, type EntityManager } from 'typeorm';
import type { ApiKeyEntity } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import { IpAllowlistRepository } from './ip-allowlist.repository';
import { KeyAuthenticator } from './key-authenticator';

export interface NewApiKey {
  developerId: string;
  mode: Mode;
  kind: ApiKeyKind;
  scopes?: string[];
  name?: string;
  expiresAt?: Date;
}

export interface IssuedApiKey {
  /** The full key. Shown exactly once; only its SHA-256 is stored. */
  secret: string;
  key: ApiKeyEntity;
}

/** Issues, looks up and revokes API keys. Keys are stored only as SHA-256 hashes. */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly allowlist: IpAllowlistRepository,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly authenticator: KeyAuthenticator,
    private readonly audit: AuditService,
  ) {}

  /**
   * Issues a key and records `api_key.created` with it (as the system when no one is named: fixtures and benchmarks).
   * @throws validation_error for an unknown scope
   */
  async issue(input: NewApiKey, actor: AuditActor = SYSTEM_ACTOR): Promise<IssuedApiKey> {
    const scopes = [...new Set(input.scopes ?? [])];
    const unknown = scopes.filter((s) => !isScope(s));
    if (unknown.length) {
      throw new DomainError('validation_error', `Unknown scope: ${unknown.join(', ')}.`, { scopes: unknown.map((s) => `unknown scope ${s}`) });
    }
    const prefix = `${input.kind === 'secret' ? 'sk' : 'pk'}_${input.mode}_`;
    const secret = `${prefix}${randomToken(24)}`;
    const key = await this.dataSource.transaction(async (m) => {
      const inserted = await this.keys.insert(
        {
          developerId: input.developerId,
          mode: input.mode,
          kind: input.kind,
          keyHash: sha256Hex(secret),
          keyHint: `${prefix}…${secret.slice(-4)}`,
          name: input.name ?? null,
          scopes: scopes as Scope[],
          expiresAt: input.expiresAt ?? null,
        },
        m,
      );
      await this.audit.record(m, { actor, action: 'api_key.created', developerId: inserted.developerId, target: keyTarget(inserted), after: keyState(inserted) });
      return inserted;
    });
    return { secret, key };
  }

  /** Idempotent: revoking a revoked key records nothing. @throws api_key_not_found (also for another developer's key) */
  async revoke(developerId: string, keyId: string, actor: AuditActor = SYSTEM_ACTOR): Promise<ApiKeyEntity> {
    const key = await this.keys.findOfDeveloper(developerId, keyId);
    if (!key) throw new DomainError('api_key_not_found', 'No such API key.');
    if (!key.revokedAt) {
      const before = keyState(key);
      key.revokedAt = this.clock.now();
      await this.dataSource.transaction(async (m) => {
        await this.keys.save(m, key);
        await notifyAccessChanged(m, `key:${key.id}`);
        await this.audit.record(m, { actor, action: 'api_key.revoked', developerId, target: keyTarget(key), before, after: keyState(key) });
      });
      this.authenticator.invalidate();
    }
    return key;
  }

  /** Finds a key by id regardless of developer; for operators only. @throws api_key_not_found */
  async getForOperator(keyId: string): Promise<ApiKeyEntity> {
    const key = /^[0-9a-f-]{36}$/i.test(keyId) ? await this.keys.findById(keyId) : null;
    if (!key) throw new DomainError('api_key_not_found', 'No such API key.');
    return key;
  }

  async findUsable(keyHash: string): Promise<ApiKeyEntity | null> {
    const key = await this.keys.findUnrevokedByHash(keyHash);
    if (!key || (key.expiresAt && key.expiresAt <= this.clock.now())) return null;
    return key;
  }

  list(developerId: string, mode?: Mode): Promise<ApiKeyEntity[]> {
    return this.keys.listOfDeveloper(developerId, mode);
  }

  /** @throws api_key_not_found (also another developer's key, or one of the other mode) */
  async get(ctx: DeveloperContext, keyId: string): Promise<ApiKeyEntity> {
    const key = UUID.test(keyId) ? await this.keys.find(ctx, keyId) : null;
    if (!key) throw new DomainError('api_key_not_found', 'No such API key.');
    return key;
  }

  /**
   * Replaces a key's scopes (empty = full access); every API instance applies it at once.
   * @throws api_key_not_found, validation_error (unknown scope), invalid_state (revoked or expired key)
   */
  async setScopes(ctx: DeveloperContext, keyId: string, scopes: string[]): Promise<ApiKeyEntity> {
    const wanted = checkedScopes(scopes);
    return this.dataSource.transaction(async (m) => {
      const key = await this.lockUsable(m, ctx, keyId);
      key.scopes = wanted;
      await this.keys.save(m, key);
      await notifyAccessChanged(m, `key:${key.id}`);
      return key;
    }).finally(() => this.authenticator.invalidate());
  }

  /**
   * Issues a successor with the same kind, name and scopes. The old key is revoked at once or,
   * with an overlap, keeps working until the overlap ends (an earlier expiry is kept), so a
   * deployment can switch keys without downtime.
   * @throws api_key_not_found, invalid_state (revoked or expired key)
   */
  async rotate(ctx: DeveloperContext, keyId: string, overlapMs = 0, actor: AuditActor = SYSTEM_ACTOR): Promise<IssuedApiKey & { previous: ApiKeyEntity }> {
    return this.dataSource.transaction(async (m) => {
      const previous = await this.lockUsable(m, ctx, keyId);
      const before = keyState(previous);
      const now = this.clock.now();
      const prefix = `${previous.kind === 'secret' ? 'sk' : 'pk'}_${previous.mode}_`;
      const secret = `${prefix}${randomToken(24)}`;
      const key = await this.keys.insert(
        {
          developerId: previous.developerId,
          mode: previous.mode,
          kind: previous.kind,
          keyHash: sha256Hex(secret),
          keyHint: `${prefix}…${secret.slice(-4)}`,
          name: previous.name,
          scopes: previous.scopes,
          expiresAt: null,
        },
        m,
      );
      if (overlapMs > 0) {
        const overlapEnd = new Date(now.getTime() + overlapMs);
        if (!previous.expiresAt || previous.expiresAt > overlapEnd) previous.expiresAt = overlapEnd;
      } else {
        previous.revokedAt = now;
      }
      await this.keys.save(m, previous);
      // The successor is bound to the same addresses: rotating must never widen where a key works.
      await this.allowlist.copyToKey(m, previous.id, key.id, now);
      await notifyAccessChanged(m, `key:${previous.id}`);
      await this.audit.record(m, {
        actor,
        action: 'api_key.rotated',
        developerId: previous.developerId,
        target: keyTarget(previous),
        before,
        after: { ...keyState(previous), successor_id: key.id, successor_hint: key.keyHint },
      });
      return { secret, key, previous };
    }).finally(() => this.authenticator.invalidate());
  }

  private async lockUsable(m: EntityManager, ctx: DeveloperContext, keyId: string): Promise<ApiKeyEntity> {
    const key = UUID.test(keyId) ? await this.keys.lock(m, ctx, keyId) : null;
    if (!key) throw new DomainError('api_key_not_found', 'No such API key.');
    if (key.revokedAt || (key.expiresAt && key.expiresAt <= this.clock.now())) {
      throw new DomainError('invalid_state', `The key ${key.keyHint} is ${key.revokedAt ? 'revoked' : 'expired'}.`);
    }
    return key;
  }
}

function keyTarget(key: ApiKeyEntity): { type: string; id: string } {
  return { type: 'api_key', id: key.id };
}

/** What the audit log keeps of a key: its hint, never the secret or its hash. */
function keyState(key: ApiKeyEntity): Record<string, unknown> {
  return {
    hint: key.keyHint,
    mode: key.mode,
    kind: key.kind,
    name: key.name,
    scopes: key.scopes,
    expires_at: key.expiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** @throws validation_error for an unknown scope */
function checkedScopes(scopes: string[]): Scope[] {
  const unique = [...new Set(scopes)];
  const unknown = unique.filter((s) => !isScope(s));
  if (unknown.length) {
    throw new DomainError('validation_error', `Unknown scope: ${unknown.join(', ')}.`, { scopes: unknown.map((s) => `unknown scope ${s}`) });
  }
  return unique as Scope[];
}
