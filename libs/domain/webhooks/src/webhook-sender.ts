import http from 'node:http';
import https from 'node:https';
import { guardedLookup, literalAddressProblem, type Resolver, systemResolver, urlFormProblem, type UrlPolicy } from './url-guard';

export const RESPONSE_BODY_LIMIT = 1024;

export interface AttemptOutcome {
  success: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The receiver's answer, truncated to RESPONSE_BODY_LIMIT characters (logs only). */
  responseBody: string | null;
}

export interface SendOptions {
  policy: UrlPolicy;
  /** The whole attempt's deadline: name resolution, connection, TLS, request and response. */
  timeoutMs: number;
  resolve?: Resolver;
}

/**
 * One POST to a receiver: no redirects followed, the address checked at connect time (the one
 * name resolution of the attempt is the connection's own, so what is checked is what is connected
 * to), and ONE deadline from the start of the attempt — a slow DNS answer counts against it, so an
 * attempt never outlives its lease (timeout + 5 s). Any 2xx within the deadline is a success;
 * everything else is a failure with a reason.
 */
export function postWebhook(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const problem = urlFormProblem(url, options.policy) ?? literalAddressProblem(url, options.policy);
  if (problem) return Promise.resolve({ success: false, statusCode: null, latencyMs: elapsed(), error: `url ${problem}`, responseBody: null });

  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...outcome, latencyMs: elapsed() });
    };
    // Armed before the request exists, so the lookup the request starts runs under it too.
    const deadline = setTimeout(() => {
      finish({ success: false, statusCode: null, error: `timed out after ${options.timeoutMs} ms`, responseBody: null });
      request.destroy();
    }, options.timeoutMs);
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Gateway-Webhooks/1.0', ...headers },
        lookup: guardedLookup(options.policy, options.resolve ?? systemResolver) as never,
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (text.length < RESPONSE_BODY_LIMIT) text += chunk;
          if (text.length >= RESPONSE_BODY_LIMIT) response.destroy();
        });
        const done = () =>
          finish({
            success: status >= 200 && status < 300,
            statusCode: status,
            error: status >= 200 && status < 300 ? null : `receiver answered ${status}`,
            responseBody: text.slice(0, RESPONSE_BODY_LIMIT),
          });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => finish({ success: false, statusCode: null, error: connectionError(error, target.hostname), responseBody: null }));
    request.end(body);
  });
}

/** The logged reason of a failed connection: ours for a refused address or an unknown host. */
function connectionError(error: NodeJS.ErrnoException, hostname: string): string {
  if (error.code === 'EADDRNOTALLOWED') return error.message;
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return `url host ${hostname} does not resolve`;
  return error.message || error.code || 'connection failed';
}
