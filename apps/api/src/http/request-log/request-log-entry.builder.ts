import type { BodyText, NewRequestLogEntry } from '@gateway/domain/request-logs';
import type { FastifyReply, FastifyRequest } from 'fastify';

const MERCHANT_API_PREFIX = '/api/v1';

/**
 * The status stored for a request whose client went away before it was answered (nginx's
 * convention): no response was sent, but the request still happened and is logged.
 */
export const CLIENT_CLOSED_REQUEST = 499;

/** The path of a merchant API request (query string removed), or null for anything else (health, docs). */
export function merchantApiPath(url: string): string | null {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  return path === MERCHANT_API_PREFIX || path.startsWith(`${MERCHANT_API_PREFIX}/`) ? path : null;
}

/**
 * What is logged of one request. Only the user agent is taken from the headers: never the
 * Authorization header, cookies or anything else. Bodies are passed raw; the writer redacts them.
 */
export function buildRequestLogEntry(input: {
  request: FastifyRequest;
  path: string;
  now: Date;
  durationMs: number;
  statusCode: number;
  /** The serialized response as sent (captured in onSend); null when nothing was sent. */
  responsePayload: unknown;
  /** The value responsePayload was serialized from, when Fastify serialized one. */
  responseValue?: unknown;
  responseContentType: string | null;
}): NewRequestLogEntry {
  const { request, durationMs } = input;
  const principal = request.principal;
  const userAgent = request.headers['user-agent'];
  return {
    requestId: request.id,
    createdAt: new Date(input.now.getTime() - durationMs),
    durationMs,
    developerId: principal?.developerId ?? null,
    apiKeyId: principal?.keyId ?? null,
    mode: principal?.mode ?? null,
    method: request.method,
    path: input.path,
    route: request.is404 ? null : (request.routeOptions.url ?? null),
    statusCode: input.statusCode,
    // The JSON parser keeps the text of every JSON body; any other body is not stored.
    requestBody: request.rawBody ?? null,
    responseBody: isJson(input.responseContentType) ? textOf(input.responsePayload) : null,
    responseValue: input.responseValue,
    clientIp: request.clientIp ?? request.ip ?? null,
    userAgent: typeof userAgent === 'string' ? userAgent : null,
  };
}

/** The content type of what was sent, as a string (Fastify allows numbers and arrays). */
export function contentTypeOf(reply: FastifyReply): string | null {
  const header = reply.getHeader('content-type');
  return header === undefined ? null : String(header);
}

function isJson(contentType: string | null): boolean {
  return contentType !== null && /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType);
}

/** Streams (files, docs assets) are never read for the log. */
function textOf(payload: unknown): BodyText {
  return typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : null;
}
