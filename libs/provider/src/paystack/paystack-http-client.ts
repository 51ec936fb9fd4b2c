import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import CircuitBreaker from 'opossum';
import { Agent } from 'undici';
import type { Mode } from '@gateway/contracts';
import { type ProviderAccountConfig, DomainError } from '@gateway/platform';
import { ProviderRejectedError } from '../provider-rejected.error';

export interface PaystackRequest {
  /** A stable name for logs ("transaction.verify"): paths can carry provider ids, so they are never logged. */
  operation: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: Record<string, unknown>;
  /** Sent as `Idempotency-Key` for POSTs that carry no reference of ours (the simulator honours it). */
  idempotencyKey?: string;
  /**
   * The 4xx statuses this call documents as refusals. Any other 4xx — a path that does not exist
   * (404), a method the provider does not take — is no answer about our request: a
   * `provider_error`, logged as an error, never a `ProviderRejectedError` a caller could read as
   * "refused" (and, say, record a hold as released). Unset: any explained 4xx is a refusal.
   */
  refusals?: readonly number[];
}

/** The whole success envelope, for lists that page with `meta`. */
export interface PaystackEnvelope {
  data: unknown;
  meta: unknown;
}

const TIMEOUT_MESSAGE = 'The payment provider did not answer in time; retrying with the same idempotency key is safe.';
const UNAVAILABLE_MESSAGE = 'The payment provider is unavailable; please try again later.';
const BREAKER_OPEN_MESSAGE = 'The payment provider is failing; requests to it are paused for a few seconds. Please try again shortly.';

/**
 * The circuit breaker in front of each mode's provider account. A dead or drowning provider would
 * otherwise hold every request (and a socket) for PROVIDER_TIMEOUT_MS and pile them up; once half
 * of at least `volumeThreshold` calls in the rolling window fail by timeout, transport error or a
 * 5xx, calls are answered at once with `provider_error` for `resetTimeoutMs`, then one probe call
 * goes through (half-open): its success closes the breaker, its failure opens it again. Refusals
 * (a 4xx the provider explains) are answers, never failures.
 */
export interface ProviderBreakerOptions {
  /** Cool-down before the half-open probe (PROVIDER_BREAKER_RESET_MS). */
  resetTimeoutMs: number;
  /** Calls in the rolling window before the breaker may open (default 10). */
  volumeThreshold?: number;
  /** Share of failed calls in the window that opens it, in percent (default 50). */
  errorThresholdPercentage?: number;
  /** The rolling window (default 10 s). */
  rollingCountTimeoutMs?: number;
}

/** Sockets one client opens to one provider origin at most (PROVIDER_MAX_SOCKETS). */
export const DEFAULT_PROVIDER_MAX_SOCKETS = 50;

/**
 * The connection pool to the provider: keep-alive sockets (reused across calls, so a call costs no
 * TCP or TLS handshake), at most `maxSocketsPerOrigin` per origin: when the provider is slow or
 * hangs, further calls wait here for a socket (inside their own timeout) instead of each opening
 * one, so a stalled provider cannot exhaust the API's file descriptors or its ports.
 */
export function providerDispatcher(maxSocketsPerOrigin = DEFAULT_PROVIDER_MAX_SOCKETS): Agent {
  return new Agent({ connections: maxSocketsPerOrigin });
}

/** Where a mode's account is: the origin the pool connects to and the base URL's path, prefixed to every call's. */
interface AccountTarget {
  origin: string;
  pathPrefix: string;
}

/** Timeouts, unreachable provider, 5xx and garbled answers: what counts against the breaker. */
class ProviderOutageError extends DomainError {}

/**
 * JSON over HTTP to a Paystack-format API with the mode's secret. Turns every transport outcome into
 * the gateway's errors (see PaymentProvider) and answers the envelope's `data`. Logs the operation,
 * mode, status and duration only — never a body, a path or a secret.
 */
export class PaystackHttpClient {
  private readonly logger = new Logger('PaymentProvider');
  private readonly breakers: Record<Mode, CircuitBreaker<[Mode, PaystackRequest], PaystackEnvelope>>;
  /** See providerDispatcher. Calls use its `request` (no WHATWG fetch objects per call: the hot paths' CPU). */
  private readonly pool: Agent;
  private readonly targets: Record<Mode, AccountTarget>;

  constructor(
    private readonly accounts: Readonly<Record<Mode, ProviderAccountConfig>>,
    private readonly timeoutMs: number,
    breaker: ProviderBreakerOptions = { resetTimeoutMs: 10_000 },
    maxSocketsPerOrigin = DEFAULT_PROVIDER_MAX_SOCKETS,
  ) {
    this.pool = providerDispatcher(maxSocketsPerOrigin);
    const target = (mode: Mode): AccountTarget => {
      const url = new URL(accounts[mode].baseUrl);
      return { origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, '') };
    };
    this.targets = { test: target('test'), live: target('live') };
    const make = (mode: Mode) => {
      const circuit = new CircuitBreaker((m: Mode, request: PaystackRequest) => this.exchange(m, request), {
        timeout: false, // the call's own timeout applies (a 504 gateway_timeout)
        resetTimeout: breaker.resetTimeoutMs,
        volumeThreshold: breaker.volumeThreshold ?? 10,
        errorThresholdPercentage: breaker.errorThresholdPercentage ?? 50,
        rollingCountTimeout: breaker.rollingCountTimeoutMs ?? 10_000,
        // Only the window's counts decide; nothing reads latency percentiles or snapshots. With them
        // on, opossum keeps every call's latency and sorts the window's each second, per breaker.
        rollingPercentilesEnabled: false,
        enableSnapshots: false,
        // A refusal, a credentials problem or a validation error is an answer, not an outage.
        errorFilter: (error: unknown) => !(error instanceof ProviderOutageError),
      });
      circuit.on('open', () => this.logger.error(`${mode}: the provider keeps failing; calls paused for ${breaker.resetTimeoutMs} ms`));
      circuit.on('halfOpen', () => this.logger.warn(`${mode}: trying the provider again`));
      circuit.on('close', () => this.logger.log(`${mode}: the provider answers again; calls resumed`));
      return circuit;
    };
    this.breakers = { test: make('test'), live: make('live') };
  }

  async send(mode: Mode, request: PaystackRequest): Promise<unknown> {
    return (await this.sendForEnvelope(mode, request)).data;
  }

  async sendForEnvelope(mode: Mode, request: PaystackRequest): Promise<PaystackEnvelope> {
    const circuit = this.breakers[mode];
    // Refused here rather than by fire(): opossum counts a refused fire in its window, and a window
    // full of refusals would hide the next outage's failure rate once the breaker has closed.
    if (circuit.opened) throw new DomainError('provider_error', BREAKER_OPEN_MESSAGE);
    try {
      return await circuit.fire(mode, request);
    } catch (error) {
      // Half-open with its probe in flight: nothing was sent, so nothing happened upstream.
      if ((error as { code?: unknown }).code === 'EOPENBREAKER') throw new DomainError('provider_error', BREAKER_OPEN_MESSAGE);
      throw error;
    }
  }

  /** Whether a mode's breaker is open (calls answered at once without reaching the provider). */
  isPaused(mode: Mode): boolean {
    return this.breakers[mode].opened;
  }

  /** Stops the breakers' timers and closes the idle sockets (a closing app). */
  shutdown(): void {
    for (const circuit of Object.values(this.breakers)) circuit.shutdown();
    void this.pool.close();
  }

  private async exchange(mode: Mode, request: PaystackRequest): Promise<PaystackEnvelope> {
    const account = this.accounts[mode];
    const started = Date.now();
    // A timer cleared when the call ends: AbortSignal.timeout's would stay alive for the whole
    // timeout after every call (thousands at once under load). It signals through an EventEmitter,
    // which undici takes as an abort signal (documented for `request`'s `signal`) and which costs a
    // twentieth of an AbortController with its EventTarget, on every call.
    const signal = new EventEmitter();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      signal.emit('abort');
    }, this.timeoutMs);
    const headers: Record<string, string> = { authorization: `Bearer ${account.secretKey}`, accept: 'application/json' };
    if (request.body) headers['content-type'] = 'application/json';
    if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;

    let status: number;
    let text: string;
    try {
      const target = this.targets[mode];
      // Redirects are not followed (a 3xx is no envelope: an outage, like any unexpected answer).
      const response = await this.pool.request({
        origin: target.origin,
        path: `${target.pathPrefix}${request.path}${queryString(request.query)}`,
        method: request.method,
        headers,
        body: request.body ? JSON.stringify(request.body) : undefined,
        signal,
      });
      status = response.statusCode;
      text = await response.body.text(); // under the same timeout signal
    } catch (error) {
      const elapsed = Date.now() - started;
      if (timedOut) {
        this.logger.warn(`${mode} ${request.operation}: no answer within ${this.timeoutMs} ms`);
        throw new ProviderOutageError('gateway_timeout', TIMEOUT_MESSAGE);
      }
      this.logger.warn(`${mode} ${request.operation}: unreachable after ${elapsed} ms (${describeTransportError(error)})`);
      throw new ProviderOutageError('provider_error', UNAVAILABLE_MESSAGE);
    } finally {
      clearTimeout(timer);
    }

    const elapsed = Date.now() - started;
    const envelope = parseEnvelope(text);
    if (status >= 200 && status < 300 && envelope && envelope.status === true) {
      this.logger.debug(`${mode} ${request.operation}: ${status} in ${elapsed} ms`);
      return { data: envelope.data, meta: envelope.meta };
    }
    if (status === 401 || status === 403) {
      // Our secret is wrong or revoked: an operator problem, never the merchant's.
      this.logger.error(`${mode} ${request.operation}: the provider refused our credentials (${status}); check PROVIDER_${mode.toUpperCase()}_SECRET_KEY`);
      throw new DomainError('provider_error', UNAVAILABLE_MESSAGE);
    }
    if (status >= 400 && status < 500 && envelope && typeof envelope.message === 'string') {
      const refusal = refusalDetails(envelope);
      if (request.refusals && !request.refusals.includes(status)) {
        // E.g. a 404 from a path the provider does not have: says nothing about our request.
        this.logger.error(`${mode} ${request.operation}: answered ${status} (${refusal.type ?? 'no type'}/${refusal.code ?? 'no code'}), which this call never documents; check the provider base URL`);
        throw new DomainError('provider_error', UNAVAILABLE_MESSAGE);
      }
      this.logger.log(`${mode} ${request.operation}: refused with ${status} (${refusal.type ?? 'no type'}/${refusal.code ?? 'no code'}) in ${elapsed} ms`);
      throw new ProviderRejectedError(status, envelope.message, refusal);
    }
    this.logger.warn(`${mode} ${request.operation}: ${status} in ${elapsed} ms${envelope ? '' : ' (not a provider envelope)'}`);
    throw new ProviderOutageError('provider_error', UNAVAILABLE_MESSAGE);
  }

  /** Like `send`, but a 404 (the provider does not know the object) is null. */
  async sendOrNull(mode: Mode, request: PaystackRequest): Promise<unknown | null> {
    try {
      return await this.send(mode, request);
    } catch (error) {
      if (error instanceof ProviderRejectedError && error.isNotFound) return null;
      throw error;
    }
  }
}

/** Success: `{status: true, message, data, meta?}`; error: `{status: false, message, meta?: {nextStep}, type?, code?}`. */
interface Envelope {
  status: unknown;
  message: unknown;
  data: unknown;
  meta?: unknown;
  type?: unknown;
  code?: unknown;
}

/** Paystack's `type`, `code` and `meta.nextStep`, when the error body carries them. */
function refusalDetails(envelope: Envelope): { type?: string; code?: string; nextStep?: string } {
  const meta = envelope.meta !== null && typeof envelope.meta === 'object' ? (envelope.meta as { nextStep?: unknown }) : {};
  return {
    ...(typeof envelope.type === 'string' && { type: envelope.type }),
    ...(typeof envelope.code === 'string' && { code: envelope.code }),
    ...(typeof meta.nextStep === 'string' && { nextStep: meta.nextStep }),
  };
}

function queryString(query: PaystackRequest['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function parseEnvelope(text: string): Envelope | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && 'status' in parsed ? (parsed as Envelope) : null;
  } catch {
    return null;
  }
}

/** The error's code only ("ECONNREFUSED"): undici's messages can include the URL. */
function describeTransportError(error: unknown): string {
  const own = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  if (typeof own === 'string') return own;
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return cause.code;
  return error instanceof Error ? error.name : 'unknown error';
}
