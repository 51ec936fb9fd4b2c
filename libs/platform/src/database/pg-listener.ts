import { Client } from 'pg';
import { DEFAULT_DATABASE_POOL_TIMEOUT_MS } from '../config/config.schema';

export interface PgListenerOptions {
  connectionString: string;
  /** The channel to LISTEN on: a plain identifier (it is written into the LISTEN statement). */
  channel: string;
  /** Shown in pg_stat_activity, so an operator can tell the listening session apart. */
  applicationName?: string;
  /** Each notification's payload, while the connection is the listener's current one. */
  onNotification: (payload: string) => void;
  /** The connection listens (again). Notifications sent while it did not were never heard. */
  onListening?: () => void;
  /** The connection was lost, or could not be opened; the message says why and when it is retried. */
  onLost?: (message: string) => void;
  /** How long opening the connection, its LISTEN and each heartbeat may take (default: DATABASE_POOL_TIMEOUT_MS's, 10 s). */
  timeoutMs?: number;
  /** How often the listening connection is asked to answer (default 10 s). */
  heartbeatMs?: number;
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
const DEFAULT_HEARTBEAT_MS = 10_000;
const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * One connection that LISTENs on a channel and keeps listening: it is opened within a deadline,
 * reopened with backoff after any loss, and asked to answer a `SELECT 1` every heartbeat.
 *
 * The heartbeat is what notices a connection that went quiet without closing: a server that stopped
 * answering, or a peer gone behind a firewall, a NAT or a failover that dropped the connection
 * without a reset. A listening connection only reads, and TCP reports nothing on a connection that
 * sends nothing, so without it such a connection looks alive for ever while no notification
 * arrives. With it, the loss is reported within a heartbeat and a timeout, and the connection is
 * replaced.
 */
export class PgListener {
  private client: Client | undefined;
  private listening = false;
  private started = false;
  private closed = false;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: PgListenerOptions) {
    if (!CHANNEL_NAME.test(options.channel)) throw new Error(`not a channel name: ${options.channel}`);
  }

  /** Whether a connection is listening now (as far as the last heartbeat knows). */
  get isListening(): boolean {
    return this.listening;
  }

  /** Opens the connection; later calls do nothing. */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    void this.connect();
  }

  /** Closes the connection for good. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.heartbeatTimer);
    const client = this.client;
    this.client = undefined;
    this.listening = false;
    // A connection that went quiet would never confirm the goodbye: wait for it a timeout at most.
    if (client) await withDeadline(client.end(), this.timeoutMs, 'closing').catch(() => undefined);
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? DEFAULT_DATABASE_POOL_TIMEOUT_MS;
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.options.connectionString,
      application_name: this.options.applicationName,
      connectionTimeoutMillis: this.timeoutMs,
      // The operating system's own probes, for a connection given up on but not yet closed by it.
      keepAlive: true,
    });
    this.client = client;
    client.on('notification', (message) => {
      if (this.client === client) this.options.onNotification(message.payload ?? '');
    });
    client.on('error', (error) => this.lose(client, error.message));
    client.on('end', () => this.lose(client, 'connection ended'));
    try {
      await client.connect();
      await withDeadline(client.query(`LISTEN ${this.options.channel}`), this.timeoutMs, 'LISTEN');
    } catch (error) {
      this.lose(client, `cannot listen (${(error as Error).message})`);
      return;
    }
    if (this.client !== client) return;
    this.listening = true;
    this.failures = 0;
    this.options.onListening?.();
    this.beatLater(client);
  }

  private beatLater(client: Client): void {
    this.heartbeatTimer = setTimeout(() => void this.beat(client), this.options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
    this.heartbeatTimer.unref();
  }

  private async beat(client: Client): Promise<void> {
    try {
      await withDeadline(client.query('SELECT 1'), this.timeoutMs, 'heartbeat');
    } catch (error) {
      this.lose(client, `no answer (${(error as Error).message})`);
      return;
    }
    if (this.client === client) this.beatLater(client);
  }

  /** Drops `client` if it is still the current one, and opens another after a backoff. */
  private lose(client: Client, problem: string): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listening = false;
    clearTimeout(this.heartbeatTimer);
    // With a statement still waiting, pg destroys the socket rather than waiting for a goodbye.
    client.end().catch(() => undefined);
    if (this.closed) return;
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.failures);
    this.failures += 1;
    this.options.onLost?.(`${this.options.channel}: listening connection lost: ${problem}; next attempt in ${delay / 1000} s`);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref();
  }
}

function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
