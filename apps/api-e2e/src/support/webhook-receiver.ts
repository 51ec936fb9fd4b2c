import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  /** Path and query string the gateway posted to. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
  /** The sender's TCP port: tells apart the processes that sent (see multi-instance.reliability-spec.ts). */
  remotePort?: number;
}

/**
 * A merchant's receiver on 127.0.0.1: records every request with its raw body; `respond` decides
 * the status (default 200), and may hold the answer (return a promise) to simulate a slow receiver.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** TCP connections accepted, including any that never sent a request (a refused address must open none). */
  connections = 0;
  respond: (hook: ReceivedWebhook, index: number) => number | Promise<number> = () => 200;
  /** Extra response headers, e.g. a `location` with a 3xx answer. */
  headersFor: (hook: ReceivedWebhook) => Record<string, string> = () => ({});
  private server?: Server;
  private waiters: Array<{ count: number; resolve: () => void }> = [];

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const hook = { url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now(), remotePort: req.socket.remotePort };
        const index = this.received.push(hook) - 1;
        this.waiters = this.waiters.filter((w) => (this.received.length >= w.count ? (w.resolve(), false) : true));
        void Promise.resolve(this.respond(hook, index)).then((status) => {
          if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain', ...this.headersFor(hook) }).end(`receiver says ${status}`);
        });
      });
    });
    this.server.on('connection', () => (this.connections += 1));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  get port(): number {
    return (this.server?.address() as AddressInfo).port;
  }

  /** Resolves once `count` requests have arrived (or rejects after timeoutMs). */
  waitFor(count: number, timeoutMs = 10_000): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`expected ${count} webhook requests, got ${this.received.length}`)), timeoutMs);
      this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  close(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
