import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProviderSimulator, type ProviderSimulator, type ProviderSimulatorOptions } from '../src/index';

/**
 * Test harness: a simulator on 127.0.0.1:0 talking to a real webhook receiver,
 * and a tiny fetch-based client for the Paystack wire format.
 */

export const TEST_SECRET = 'sk_test_harness_alpha';
export const LIVE_SECRET = 'sk_live_harness_beta';

export interface ReceivedCallback {
  headers: IncomingHttpHeaders;
  rawBody: string;
  event: string;
  data: Record<string, unknown>;
}

/** Records every POST; answers 200 unless told to fail the next N requests. */
export class WebhookReceiver {
  readonly received: ReceivedCallback[] = [];
  private failuresLeft = 0;
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (this.failuresLeft > 0) {
          this.failuresLeft -= 1;
          response.writeHead(500).end('receiver failing on purpose');
          return;
        }
        const rawBody = Buffer.concat(chunks).toString('utf8');
        const parsed = JSON.parse(rawBody) as { event: string; data: Record<string, unknown> };
        this.received.push({ headers: request.headers, rawBody, event: parsed.event, data: parsed.data });
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}/webhooks/provider`;
    return this;
  }

  failNext(count: number): void {
    this.failuresLeft = count;
  }

  events(name?: string): ReceivedCallback[] {
    return name === undefined ? this.received : this.received.filter((callback) => callback.event === name);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export interface ApiResponse<T = Record<string, unknown>> {
  httpStatus: number;
  headers: Headers;
  status: boolean;
  message: string;
  data: T;
  /** Lists: pagination (`next`, `previous`, `perPage`); errors: `{ nextStep }`. */
  meta?: Wire;
  /** Errors only: Paystack's `type` and `code`. */
  type?: string;
  code?: string;
}

/** Loosely-typed wire objects; tests assert on concrete values. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Wire = any;

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly secret: string | undefined,
  ) {}

  withSecret(secret: string | undefined): ApiClient {
    return new ApiClient(this.baseUrl, secret);
  }

  get(path: string, init: RequestInit = {}): Promise<ApiResponse<Wire>> {
    return this.request('GET', path, undefined, init);
  }

  post(path: string, body?: unknown, init: RequestInit = {}): Promise<ApiResponse<Wire>> {
    return this.request('POST', path, body, init);
  }

  async request(method: string, path: string, body: unknown, init: RequestInit): Promise<ApiResponse<Wire>> {
    const headers = new Headers(init.headers);
    if (this.secret !== undefined) headers.set('authorization', `Bearer ${this.secret}`);
    if (body !== undefined) headers.set('content-type', 'application/json');
    const response = await fetch(`${this.baseUrl}${path}`, {
      ...init,
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as { status: boolean; message: string; data: Wire; meta?: Wire; type?: string; code?: string };
    return { httpStatus: response.status, headers: response.headers, ...json };
  }
}

export interface Harness {
  sim: ProviderSimulator;
  baseUrl: string;
  api: ApiClient;
  live: ApiClient;
  receiver: WebhookReceiver;
  close(): Promise<void>;
}

export async function startHarness(options: Partial<ProviderSimulatorOptions> = {}): Promise<Harness> {
  const receiver = await new WebhookReceiver().start();
  const sim = createProviderSimulator({
    secretKeys: [TEST_SECRET, LIVE_SECRET],
    webhookUrl: receiver.url,
    transferDelayMs: 0,
    callbackRetryDelaysMs: [5, 5, 5],
    ...options,
  });
  const baseUrl = await sim.listen();
  const api = new ApiClient(baseUrl, TEST_SECRET);
  return {
    sim,
    baseUrl,
    api,
    live: api.withSecret(LIVE_SECRET),
    receiver,
    async close() {
      await sim.close();
      await receiver.close();
    },
  };
}

let referenceCounter = 0;
/** Unique per call, so tests never collide on references. */
export function uniqueReference(prefix = 'ref'): string {
  referenceCounter += 1;
  return `${prefix}-${Date.now().toString(36)}-${referenceCounter}`;
}

/** Initializes a checkout transaction and returns its reference and access code. */
export async function initialize(
  api: ApiClient,
  overrides: Record<string, unknown> = {},
): Promise<{ reference: string; accessCode: string; authorizationUrl: string }> {
  const reference = (overrides['reference'] as string | undefined) ?? uniqueReference('trx');
  const response = await api.post('/transaction/initialize', {
    email: 'ada@example.com',
    amount: 200_000,
    reference,
    ...overrides,
  });
  if (response.httpStatus !== 200) throw new Error(`initialize failed: ${response.httpStatus} ${response.message}`);
  return {
    reference,
    accessCode: response.data.access_code,
    authorizationUrl: response.data.authorization_url,
  };
}

/** Pays a checkout transaction through the hosted page form, as a browser would. */
export async function payOnCheckout(baseUrl: string, accessCode: string, cardNumber: string): Promise<Response> {
  return fetch(`${baseUrl}/checkout/${accessCode}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card: cardNumber }).toString(),
    redirect: 'manual',
  });
}

/** A customer with a saved, reusable card: returns the authorization code. */
export async function savedCard(
  harness: Harness,
  cardNumber = '4084084084084081',
  email = 'ada@example.com',
): Promise<{ authorizationCode: string; reference: string }> {
  const { reference, accessCode } = await initialize(harness.api, { email });
  const paid = await payOnCheckout(harness.baseUrl, accessCode, cardNumber);
  await paid.arrayBuffer();
  const verified = await harness.api.get(`/transaction/verify/${reference}`);
  return { authorizationCode: verified.data.authorization.authorization_code, reference };
}
