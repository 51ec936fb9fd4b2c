import type { WebhookAttemptError } from '@gateway/contracts';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { classifyRequestError, type RequestProgress } from './attempt-error';
import { addressScope } from './special-purpose-addresses';
import { guardedLookup, isTrustedHost, literalAddressProblem, type Resolver, systemResolver, urlFormProblem, type UrlPolicy } from './url-guard';

export const RESPONSE_BODY_LIMIT = 1024;

export interface AttemptOutcome {
  success: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: WebhookAttemptError | null;
  /**
   * The receiver's answer, truncated to RESPONSE_BODY_LIMIT characters (logs only); null unless the
   * peer is an address the live-mode rules accept (or a trusted host): what a loopback or private
   * service answers is not shown to whoever registered the URL.
   */
  responseBody: string | null;
  /** The socket's own words for the operator's debug log; never stored, never returned. */
  detail: string | null;
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
 * everything else is a failure with a short class.
 */
export function postWebhook(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const problem = urlFormProblem(url, options.policy) ?? literalAddressProblem(url, options.policy);
  if (problem) return Promise.resolve({ success: false, statusCode: null, latencyMs: elapsed(), error: 'url_not_allowed', responseBody: null, detail: `url ${problem}` });

  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const trusted = isTrustedHost(url, options.policy);
  const progress: RequestProgress = { tls: target.protocol === 'https:', tcpConnected: false, tlsEstablished: false };
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
      finish({ success: false, statusCode: null, error: 'timeout', responseBody: null, detail: `no answer within ${options.timeoutMs} ms` });
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
        const succeeded = status >= 200 && status < 300;
        // Judged on the address actually connected to, whatever the host name said.
        const showBody = trusted || addressScope(response.socket?.remoteAddress ?? '') === 'public';
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (text.length < RESPONSE_BODY_LIMIT) text += chunk;
          if (text.length >= RESPONSE_BODY_LIMIT) response.destroy();
        });
        const done = () =>
          finish({
            success: succeeded,
            statusCode: status,
            error: succeeded ? null : 'http_status',
            responseBody: showBody ? text.slice(0, RESPONSE_BODY_LIMIT) : null,
            detail: succeeded ? null : `receiver answered ${status}`,
          });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    request.on('socket', (socket: Socket) => {
      socket.once('connect', () => (progress.tcpConnected = true));
      socket.once('secureConnect', () => (progress.tlsEstablished = true));
    });
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({ success: false, statusCode: null, error: classifyRequestError(error, progress), responseBody: null, detail: [error.code, error.message].filter(Boolean).join(' ') }),
    );
    request.end(body);
  });
}
