import http from 'node:http';
import https from 'node:https';
import { guardedLookup, urlAddressProblem, urlFormProblem, type UrlPolicy } from './url-guard';

export const RESPONSE_BODY_LIMIT = 1024;

export interface AttemptOutcome {
  success: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The receiver's answer, truncated to RESPONSE_BODY_LIMIT characters (logs only). */
  responseBody: string | null;
}

/**
 * One POST to a receiver: no redirects followed, a total deadline, the address checked again at
 * connect time. Any 2xx within the deadline is a success; everything else is a failure with a reason.
 */
export async function postWebhook(url: string, body: string, headers: Record<string, string>, policy: UrlPolicy, timeoutMs: number): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const problem = urlFormProblem(url, policy) ?? (await urlAddressProblem(url, policy));
  if (problem) return { success: false, statusCode: null, latencyMs: elapsed(), error: `url ${problem}`, responseBody: null };

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
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Gateway-Webhooks/1.0', ...headers },
        lookup: guardedLookup(policy) as never,
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
    const deadline = setTimeout(() => {
      request.destroy();
      finish({ success: false, statusCode: null, error: `timed out after ${timeoutMs} ms`, responseBody: null });
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => finish({ success: false, statusCode: null, error: error.message || error.code || 'connection failed', responseBody: null }));
    request.end(body);
  });
}
