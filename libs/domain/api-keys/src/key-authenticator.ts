import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ACCESS_CHANGED_CHANNEL, Clock, sha256Hex } from '@gateway/platform';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { ApiKeysRepository, type KeyAccessRecord } from './api-keys.repository';
import { type IpRule, parseRule } from './ip-rules';

/** Everything the guards need to decide about a request, resolved from the key in one query. */
export type AuthenticatedKey = Omit<KeyAccessRecord, 'allowlist'> & {
  /** The developer-wide entries plus this key's own; empty = every address. */
  allowlist: IpRule[];
};

const CACHE_TTL_MS = 60_000;
const LAST_USE_FLUSH_MS = 10_000;

/**
 * Resolves a presented key to its owner, mode, scopes and allowlist. Results are cached per
 * instance while a LISTEN connection is up: any change to keys, allowlists or verification is
 * NOTIFYed at commit and clears the cache on every instance, so revocation applies at once.
 * Without the listener the cache is bypassed. Last use (time, IP) is collected in memory and
 * written in one batched UPDATE every few seconds — never a write per request.
 */
@Injectable()
export class KeyAuthenticator implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(KeyAuthenticator.name);
  private readonly cache = new Map<string, { key: AuthenticatedKey | null; expiresAt: number }>();
  private readonly lastUse = new Map<string, { at: Date; ip: string }>();
  private listener?: Client;
  private listening = false;
  /** Bumped on every invalidation: a lookup that raced an invalidation must not cache what it read. */
  private generation = 0;
  private flushTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly keys: ApiKeysRepository,
    private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.listen();
    this.flushTimer = setInterval(() => void this.flushLastUse(), LAST_USE_FLUSH_MS);
    this.flushTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    clearInterval(this.flushTimer);
    await this.flushLastUse();
    await this.listener?.end().catch(() => undefined);
  }

  /** The key's record if it exists, is not revoked and has not expired; otherwise null. */
  async lookup(presented: string): Promise<AuthenticatedKey | null> {
    const hash = sha256Hex(presented);
    const now = this.clock.now();
    const cached = this.listening ? this.cache.get(hash) : undefined;
    const key = cached && cached.expiresAt > Date.now() ? cached.key : await this.load(hash);
    if (key && key.expiresAt && key.expiresAt <= now) return null;
    return key;
  }

  /** Drops this instance's cache at once (other instances hear the NOTIFY within milliseconds). */
  invalidate(): void {
    this.generation++;
    this.cache.clear();
  }

  recordUse(keyId: string, ip: string): void {
    this.lastUse.set(keyId, { at: this.clock.now(), ip });
  }

  private async load(hash: string): Promise<AuthenticatedKey | null> {
    const generation = this.generation;
    const record = await this.keys.findAccess(hash);
    const key: AuthenticatedKey | null = record
      ? { ...record, allowlist: record.allowlist.map((cidr) => parseRule(cidr)).filter((r): r is IpRule => r !== null) }
      : null;
    // Unknown keys are not cached: guessing must not fill memory.
    if (key && this.listening && generation === this.generation) this.cache.set(hash, { key, expiresAt: Date.now() + CACHE_TTL_MS });
    return key;
  }

  private async listen(): Promise<void> {
    const options = this.dataSource.options as { url?: string };
    const client = new Client({ connectionString: options.url });
    const drop = (reason: string) => {
      if (!this.listening && this.listener !== client) return;
      this.listening = false;
      this.invalidate();
      if (!this.closed) {
        this.logger.warn(`access-change listener lost (${reason}); key cache disabled, reconnecting`);
        setTimeout(() => void this.listen(), 1_000).unref();
      }
    };
    client.on('notification', () => this.invalidate());
    client.on('error', (error) => drop(error.message));
    client.on('end', () => drop('connection ended'));
    try {
      await client.connect();
      await client.query(`LISTEN ${ACCESS_CHANGED_CHANNEL}`);
      this.listener = client;
      this.invalidate();
      this.listening = true;
    } catch (error) {
      await client.end().catch(() => undefined);
      drop((error as Error).message);
    }
  }

  private async flushLastUse(): Promise<void> {
    if (!this.lastUse.size) return;
    const batch = [...this.lastUse.entries()];
    this.lastUse.clear();
    try {
      await this.keys.recordLastUse(batch.map(([keyId, u]) => ({ keyId, at: u.at, ip: u.ip })));
    } catch (error) {
      this.logger.warn(`could not record key last use: ${(error as Error).message}`);
    }
  }
}
