import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as it reached the provider: what the conformance suite checks against the documentation. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or null when there was none. */
  body: Record<string, unknown> | null;
}

export interface DocumentedAnswer {
  status: number;
  body: unknown;
}

type Answer = (request: RecordedRequest) => DocumentedAnswer;

/**
 * A stand-in for Paystack that answers exactly what its documentation shows for each route we
 * give it, and records every request. The answers are written in each spec from the documented
 * field names, types and values (never copied documents); anything not scripted is a 404.
 */
export class DocumentedProvider {
  readonly requests: RecordedRequest[] = [];
  private readonly routes: Array<{ method: string; path: RegExp; answer: Answer }> = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const url = new URL(request.url ?? '/', 'http://provider.test');
        const text = Buffer.concat(chunks).toString('utf8');
        const recorded: RecordedRequest = {
          method: request.method ?? 'GET',
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: request.headers,
          body: text === '' ? null : safeJson(text),
        };
        this.requests.push(recorded);
        const route = this.routes.find((candidate) => candidate.method === recorded.method && candidate.path.test(recorded.path));
        const answer = route ? route.answer(recorded) : { status: 404, body: { status: false, message: 'Not found' } };
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body === '' ? '' : JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Answers `method path` (a regular expression on the path) with `answer`; the latest wins. */
  on(method: string, path: RegExp, answer: Answer | DocumentedAnswer): this {
    this.routes.unshift({ method, path, answer: typeof answer === 'function' ? answer : () => answer });
    return this;
  }

  /** The requests made since `start` or the last `clear`, matching `method path`. */
  made(method: string, path: RegExp): RecordedRequest[] {
    return this.requests.filter((request) => request.method === method && path.test(request.path));
  }

  clear(): void {
    this.requests.length = 0;
    this.routes.length = 0;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

function safeJson(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Paystack's success envelope. */
export const ok = (message: string, data: unknown, meta?: unknown): DocumentedAnswer => ({
  status: 200,
  body: { status: true, message, data, ...(meta !== undefined && { meta }) },
});

/** Paystack's error body (API reference, "Errors"; PaystackOSS/openapi `components/schemas/Error`). */
export const refusal = (status: number, message: string, details?: { type: string; code: string; nextStep: string }): DocumentedAnswer => ({
  status,
  body: { status: false, message, ...(details && { meta: { nextStep: details.nextStep }, type: details.type, code: details.code }) },
});
