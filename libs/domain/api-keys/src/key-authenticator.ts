import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ACCESS_CHANGED_CHANNEL, Clock, PgListener, sha256Hex } from '@gateway/platform';
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
  private listener?: PgListener;
  /** Bumped on every invalidation: a lookup that raced an invalidation must not cache what it read. */
  private generation = 0;
  private flushTimer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly keys: ApiKeysRepository,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.listener = new PgListener({
      connectionString: (this.dataSource.options as { url?: string }).url as string,
      channel: ACCESS_CHANGED_CHANNEL,
      applicationName: `gateway-access-changes:${process.pid}`,
      onNotification: () => this.invalidate(),
      // What changed while nobody listened was never heard: start from an empty cache.
      onListening: () => this.invalidate(),
      onLost: (message) => {
        this.invalidate();
        this.logger.warn(`${message}; key cache disabled meanwhile`);
      },
    });
    this.listener.start();
    this.flushTimer = setInterval(() => void this.flushLastUse(), LAST_USE_FLUSH_MS);
    this.flushTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flushLastUse();
    await this.listener?.close();
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

  /** The cache is used only while the listener is up: then every change clears it at once. */
  private get listening(): boolean {
    return this.listener?.isListening ?? false;
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
