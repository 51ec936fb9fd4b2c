import type { FastifyInstance } from 'fastify';
import { setMaxListeners } from 'node:events';
import { buildApp } from './app';
import { CallbackSender, type CallbackDelivery } from './callbacks';
import type { SimulatorContext } from './context';
import { calculateFee, resolveFeeSchedule, type FeeSchedule } from './fees';
import { isHttpUrl } from './http/validation';
import { IdGenerator } from './ids';
import type { Currency, MinorUnits } from './money';
import { resetSimulator } from './services/reset';
import { AccountRegistry } from './state/accounts';
import { DEFAULT_KNOBS, KnobState, type Knobs } from './state/knobs';
import { TaskTracker } from './tasks';
import { TEST_CARDS, type TestCard } from './test-cards';

export interface ProviderSimulatorOptions {
  /** Accepted `Authorization: Bearer <secret>` values; state is partitioned per secret (test vs live are separate accounts). */
  secretKeys: string[];
  /** Where signed callbacks are POSTed (the gateway's provider-webhook endpoint); none = no callbacks. */
  webhookUrl?: string;
  /** Base URL used to build authorization_url (default: the listening address). */
  publicUrl?: string;
  /** Async completion delay for transfers/refunds (default 1000; tests use 0). */
  transferDelayMs?: number;
  /** Override the fee schedule, per currency. */
  fees?: Partial<FeeSchedule>;
  /** Added latency on every API call. */
  latencyMs?: number;
  /** How long a call hangs under the timeout_next knob (default 30 000 ms). */
  hangMs?: number;
  /** Settle transfers/refunds automatically (default true); false = only via /sim/…/complete. */
  autoComplete?: boolean;
  /** Pause before each callback retry (default [100, 500, 2000]: four attempts in total). */
  callbackRetryDelaysMs?: number[];
  /** Per-attempt timeout of a callback POST (default 5000 ms). */
  callbackTimeoutMs?: number;
  /** Callback deliveries in flight at once (default 1: one at a time, in order). */
  callbackConcurrency?: number;
  /** Receives operational messages (failed callbacks, unexpected errors). Default: silent. */
  log?: (line: string) => void;
}

export interface ProviderSimulator {
  app: FastifyInstance;
  /** Starts listening (default 127.0.0.1 and a free port); resolves with the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  /** Ends hung requests, drops pending work and closes the server. Safe to call twice. */
  close(): Promise<void>;
  /** Resolves when no callback deliveries / async completions are pending (for tests). */
  idle(): Promise<void>;
  /** Base URL once listening, else undefined. */
  url(): string | undefined;
  /**
   * Points callbacks at another receiver (undefined = stop sending). For tests
   * that can only know the gateway's webhook URL after the simulator is listening.
   */
  setWebhookUrl(url: string | undefined): void;
  knobs(): Knobs;
  setKnobs(patch: Partial<Knobs>): Knobs;
  /** Same as POST /sim/reset. */
  reset(): void;
  /** Every callback sent so far (most recent 500), with status and attempts. */
  callbacks(): readonly CallbackDelivery[];
  /** The fee the simulator charges for a successful payment. */
  feeFor(amount: MinorUnits, currency: Currency): MinorUnits;
  readonly testCards: readonly TestCard[];
}

const DEFAULT_CALLBACK_RETRY_DELAYS_MS = [100, 500, 2_000];
const DEFAULT_CALLBACK_TIMEOUT_MS = 5_000;

export function createProviderSimulator(options: ProviderSimulatorOptions): ProviderSimulator {
  validateOptions(options);
  const log = options.log ?? (() => undefined);
  const shutdown = new AbortController();
  // Every call sleeping under the latency or timeout knobs listens on it until it wakes, so a
  // loaded simulator has any number at once: not a leak, and not worth Node's warning at 11.
  setMaxListeners(0, shutdown.signal);
  const tasks = new TaskTracker((error) =>
    log(`background task failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  );
  const fees = resolveFeeSchedule(options.fees);
  const knobs = new KnobState({
    ...DEFAULT_KNOBS,
    latencyMs: options.latencyMs ?? DEFAULT_KNOBS.latencyMs,
    hangMs: options.hangMs ?? DEFAULT_KNOBS.hangMs,
    autoComplete: options.autoComplete ?? DEFAULT_KNOBS.autoComplete,
    transferDelayMs: options.transferDelayMs ?? DEFAULT_KNOBS.transferDelayMs,
  });
  const callbacks = new CallbackSender({
    webhookUrl: options.webhookUrl,
    retryDelaysMs: options.callbackRetryDelaysMs ?? DEFAULT_CALLBACK_RETRY_DELAYS_MS,
    attemptTimeoutMs: options.callbackTimeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS,
    concurrency: options.callbackConcurrency,
    tasks,
    log,
  });

  let listeningUrl: string | undefined;
  const ctx: SimulatorContext = {
    accounts: new AccountRegistry(options.secretKeys),
    ids: new IdGenerator(),
    fees,
    knobs,
    tasks,
    callbacks,
    uploads: new Map(),
    shutdown: shutdown.signal,
    publicUrl: () => stripTrailingSlash(options.publicUrl ?? listeningUrl ?? 'http://127.0.0.1'),
    now: () => new Date(),
  };
  const app = buildApp(ctx, log);

  let closing: Promise<void> | undefined;
  return {
    app,
    async listen(port = 0, host = '127.0.0.1') {
      listeningUrl = await app.listen({ port, host });
      return listeningUrl;
    },
    close() {
      closing ??= (async () => {
        shutdown.abort();
        tasks.cancelScheduled();
        callbacks.cancelPending();
        await app.close();
        await tasks.idle();
        await callbacks.close();
      })();
      return closing;
    },
    idle: () => tasks.idle(),
    url: () => listeningUrl,
    setWebhookUrl(url) {
      if (url !== undefined && !isHttpUrl(url)) throw new Error('webhookUrl must be an absolute http(s) URL');
      callbacks.setWebhookUrl(url);
    },
    knobs: () => knobs.current,
    setKnobs: (patch) => knobs.update(patch),
    reset: () => resetSimulator(ctx),
    callbacks: () => callbacks.deliveries(),
    feeFor: (amount, currency) => calculateFee(amount, currency, fees),
    testCards: TEST_CARDS,
  };
}

function validateOptions(options: ProviderSimulatorOptions): void {
  const fail = (message: string): never => {
    throw new Error(`Invalid provider simulator options: ${message}`);
  };
  if (!Array.isArray(options.secretKeys) || options.secretKeys.length === 0) fail('secretKeys must list at least one key');
  for (const key of options.secretKeys) {
    if (typeof key !== 'string' || key.trim() === '' || /\s/.test(key)) fail('secret keys must be non-empty and contain no spaces');
  }
  if (new Set(options.secretKeys).size !== options.secretKeys.length) fail('secretKeys contains duplicates');
  if (options.webhookUrl !== undefined && !isHttpUrl(options.webhookUrl)) fail('webhookUrl must be an absolute http(s) URL');
  if (options.publicUrl !== undefined && !isHttpUrl(options.publicUrl)) fail('publicUrl must be an absolute http(s) URL');
  const nonNegativeInteger = (name: string, value: number | undefined) => {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) fail(`${name} must be a non-negative integer`);
  };
  nonNegativeInteger('transferDelayMs', options.transferDelayMs);
  nonNegativeInteger('latencyMs', options.latencyMs);
  nonNegativeInteger('hangMs', options.hangMs);
  nonNegativeInteger('callbackTimeoutMs', options.callbackTimeoutMs);
  for (const delay of options.callbackRetryDelaysMs ?? []) nonNegativeInteger('callbackRetryDelaysMs[]', delay);
  if (options.callbackConcurrency !== undefined && (!Number.isSafeInteger(options.callbackConcurrency) || options.callbackConcurrency < 1)) {
    fail('callbackConcurrency must be a positive integer');
  }
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
