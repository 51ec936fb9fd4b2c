import type { WebhookAttemptError } from '@gateway/contracts';
import { toStorableCharacters } from '@gateway/platform';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
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

/** How long an idle pooled connection to a receiver is kept (below the 5 s most servers keep theirs). */
const IDLE_CONNECTION_MS = 4000;

const agents = new Map<string, http.Agent>();

/**
 * Connections to receivers are kept alive and reused, one pool per URL policy: a socket is only
 * ever opened through guardedLookup under the policy of the attempt that opened it, so an
 * address allowed for one mode's endpoints (loopback in test mode) never carries another mode's
 * request. A reused socket stays connected to the address that was checked when it was opened;
 * a host that re-resolves elsewhere is checked again on the next new connection.
 */
function pooledAgent(protocol: string, policy: UrlPolicy): http.Agent {
  const key = JSON.stringify([protocol, policy.mode, policy.allowPrivateInTestMode, policy.trustedHosts]);
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/**
 * One POST to a receiver: no redirects followed, the address checked at connect time (the one
 * name resolution of the attempt is the connection's own, so what is checked is what is connected
 * to), and ONE deadline from the start of the attempt — a slow DNS answer counts against it, so an
 * attempt never outlives its lease (timeout + 5 s). Any 2xx within the deadline is a success;
 * everything else is a failure with a short class.
 *
 * The request goes over a pooled keep-alive connection when one is free (pooledAgent). A pooled
 * connection the receiver closed while idle fails at once on reuse; that request is sent again,
 * once, on a new connection: it is the pooling's failure, not the receiver's answer.
 */
export function postWebhook(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const problem = urlFormProblem(url, options.policy) ?? literalAddressProblem(url, options.policy);
  if (problem) return Promise.resolve({ success: false, statusCode: null, latencyMs: elapsed(), error: 'url_not_allowed', responseBody: null, detail: `url ${problem}` });

  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const trusted = isTrustedHost(url, options.policy);
  const requestHeaders = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Gateway-Webhooks/1.0', ...headers };
  const lookup = guardedLookup(options.policy, options.resolve ?? systemResolver) as never;
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    let request: http.ClientRequest;
    const finish = (outcome: Omit<AttemptOutcome, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      // New keys before the spread, never after it (docs/benchmarks.md, "Keys added after a spread").
      resolve({ latencyMs: elapsed(), ...outcome });
    };
    // Armed before the request exists, so the lookup the request starts runs under it too.
    const deadline = setTimeout(() => {
      finish({ success: false, statusCode: null, error: 'timeout', responseBody: null, detail: `no answer within ${options.timeoutMs} ms` });
      request.destroy();
    }, options.timeoutMs);
    const send = (agent: http.Agent | false) => {
      const progress: RequestProgress = { tls: target.protocol === 'https:', tcpConnected: false, tlsEstablished: false };
      let answered = false;
      request = client.request(target, { method: 'POST', headers: requestHeaders, lookup, agent }, (response) => {
        answered = true;
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
            // Storable: a NUL or a surrogate pair cut in half would fail the whole batch's record (PostgreSQL refuses them).
            responseBody: showBody ? toStorableCharacters(text.slice(0, RESPONSE_BODY_LIMIT)) : null,
            detail: succeeded ? null : `receiver answered ${status}`,
          });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      });
      request.on('socket', (socket: Socket) => {
        // A pooled socket is already connected (and its TLS established).
        if (!socket.connecting) return void Object.assign(progress, { tcpConnected: true, tlsEstablished: progress.tls && !!(socket as TLSSocket).encrypted });
        socket.once('connect', () => (progress.tcpConnected = true));
        socket.once('secureConnect', () => (progress.tlsEstablished = true));
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (settled) return;
        if (agent && request.reusedSocket && !answered && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) return send(false);
        finish({ success: false, statusCode: null, error: classifyRequestError(error, progress), responseBody: null, detail: [error.code, error.message].filter(Boolean).join(' ') });
      });
      request.end(body);
    };
    send(pooledAgent(target.protocol, options.policy));
  });
}
