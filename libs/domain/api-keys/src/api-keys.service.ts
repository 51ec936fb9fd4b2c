import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type ApiKeyKind, isScope, type Mode, type Scope } from '@gateway/contracts';
import { Clock, DomainError, randomToken, sha256Hex } from '@gateway/platform';
import { IsNull, Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';

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
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    private readonly clock: Clock,
  ) {}

  /** @throws validation_error for an unknown scope */
  async issue(input: NewApiKey): Promise<IssuedApiKey> {
    const scopes = [...new Set(input.scopes ?? [])];
    const unknown = scopes.filter((s) => !isScope(s));
    if (unknown.length) {
      throw new DomainError('validation_error', `Unknown scope: ${unknown.join(', ')}.`, { scopes: unknown.map((s) => `unknown scope ${s}`) });
    }
    const prefix = `${input.kind === 'secret' ? 'sk' : 'pk'}_${input.mode}_`;
    const secret = `${prefix}${randomToken(24)}`;
    const key = await this.keys.save(
      this.keys.create({
        developerId: input.developerId,
        mode: input.mode,
        kind: input.kind,
        keyHash: sha256Hex(secret),
        keyHint: `${prefix}…${secret.slice(-4)}`,
        name: input.name ?? null,
        scopes: scopes as Scope[],
        expiresAt: input.expiresAt ?? null,
      }),
    );
    return { secret, key };
  }

  /** @throws api_key_not_found (also for another developer's key) */
  async revoke(developerId: string, keyId: string): Promise<ApiKeyEntity> {
    const key = await this.keys.findOneBy({ id: keyId, developerId });
    if (!key) throw new DomainError('api_key_not_found', 'No such API key.');
    if (!key.revokedAt) {
      key.revokedAt = this.clock.now();
      await this.keys.save(key);
    }
    return key;
  }

  /** Finds a key by id regardless of developer; for operators only. @throws api_key_not_found */
  async getForOperator(keyId: string): Promise<ApiKeyEntity> {
    const key = /^[0-9a-f-]{36}$/i.test(keyId) ? await this.keys.findOneBy({ id: keyId }) : null;
    if (!key) throw new DomainError('api_key_not_found', 'No such API key.');
    return key;
  }

  async findUsable(keyHash: string): Promise<ApiKeyEntity | null> {
    const key = await this.keys.findOneBy({ keyHash, revokedAt: IsNull() });
    if (!key || (key.expiresAt && key.expiresAt <= this.clock.now())) return null;
    return key;
  }

  list(developerId: string, mode?: Mode): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: { developerId, ...(mode ? { mode } : {}) }, order: { createdAt: 'DESC' } });
  }
}
