import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RequestLogWriter } from '@gateway/domain/request-logs';
import { Clock } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import { buildRequestLogEntry, CLIENT_CLOSED_REQUEST, contentTypeOf, merchantApiPath } from './request-log-entry.builder';

/** A merchant API request on its way through the hooks. */
interface TrackedRequest {
  path: string;
  /** performance.now() on arrival, for requests that end without a reply (abandoned by the client). */
  startedAt: number;
  /** The serialized response, captured in onSend. */
  payload: unknown;
  /**
   * The value Fastify serialized into that response (captured in preSerialization, the last of its
   * hooks there), so the log redacts it instead of parsing the text back. The text onSend sees is
   * this value's JSON: no onSend hook of the API rewrites a body, and an error after the capture
   * (the value cannot be serialized, a later hook fails) forgets it in onError, before the error's
   * own response is sent. Responses are built for their request (the mappers make new objects) and
   * nothing changes them once sent, so the value read in onResponse is still the one sent.
   */
  serializedFrom: unknown;
  logged: boolean;
}

const TRACKED = 'requestLogTracking';
type RequestWithTracking = FastifyRequest & { [TRACKED]: TrackedRequest | null };

/**
 * Logs every request to the merchant API (`/api/v1/…`), refusals (401, 403, 404, 413, 429, 5xx)
 * included, without slowing it down: onSend only keeps a reference to the serialized response,
 * and the entry is built in onResponse — after the response has been sent — and handed to the
 * batching writer. Register before the application starts listening.
 */
export function registerRequestLogging(app: NestFastifyApplication): void {
  const writer = app.get(RequestLogWriter, { strict: false });
  const clock = app.get(Clock, { strict: false });
  const logger = new Logger('RequestLog');
  const fastify = app.getHttpAdapter().getInstance();
  // A request decoration rather than a WeakMap: a plain property costs nothing to read, where
  // WeakMap entries for thousands of short-lived requests a second weigh on the garbage collector.
  fastify.decorateRequest(TRACKED, null);
  const tracked = {
    get: (request: FastifyRequest): TrackedRequest | null => (request as RequestWithTracking)[TRACKED],
    set: (request: FastifyRequest, state: TrackedRequest) => void ((request as RequestWithTracking)[TRACKED] = state),
  };

  const record = (request: FastifyRequest, outcome: { statusCode: number; durationMs: number; contentType: string | null }) => {
    const state = tracked.get(request);
    // An abandoned request may still produce a late response event: log it once.
    if (!state || state.logged) return;
    state.logged = true;
    try {
      writer.record(
        buildRequestLogEntry({
          request,
          path: state.path,
          now: clock.now(),
          durationMs: outcome.durationMs,
          statusCode: outcome.statusCode,
          responsePayload: state.payload,
          responseValue: state.serializedFrom,
          responseContentType: outcome.contentType,
        }),
      );
    } catch (error) {
      // Logging must never break serving; say so loudly instead.
      logger.warn(`Could not log request ${request.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  fastify.addHook('onRequest', (request, _reply, done) => {
    const path = merchantApiPath(request.url);
    if (path !== null) tracked.set(request, { path, startedAt: performance.now(), payload: null, serializedFrom: undefined, logged: false });
    done();
  });
  // Registered after the success envelope's hook (create-api-app.ts), so it sees the final value.
  fastify.addHook('preSerialization', (request, _reply, payload, done) => {
    const state = tracked.get(request);
    if (state) state.serializedFrom = payload;
    done(null, payload);
  });
  fastify.addHook('onError', (request, _reply, _error, done) => {
    const state = tracked.get(request);
    if (state) state.serializedFrom = undefined;
    done();
  });
  fastify.addHook('onSend', (request, _reply, payload, done) => {
    const state = tracked.get(request);
    if (state) {
      state.payload = payload;
      // Only a text Fastify serialized from it; anything else is read as it is.
      if (typeof payload !== 'string') state.serializedFrom = undefined;
    }
    done(null, payload);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    record(request, { statusCode: reply.statusCode, durationMs: reply.elapsedTime, contentType: contentTypeOf(reply) });
    done();
  });
  fastify.addHook('onRequestAbort', (request, done) => {
    const startedAt = tracked.get(request)?.startedAt ?? performance.now();
    record(request, { statusCode: CLIENT_CLOSED_REQUEST, durationMs: performance.now() - startedAt, contentType: null });
    done();
  });
  // Runs once the HTTP server has closed (its last requests answered) and before the database
  // pool closes: the entries of those last requests are written here.
  fastify.addHook('onClose', async () => {
    await writer.flush();
  });
}
