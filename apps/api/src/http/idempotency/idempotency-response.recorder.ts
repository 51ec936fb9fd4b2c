import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type IdempotencyClaim, IdempotencyService } from '@gateway/domain/idempotency';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Whether a response is the request's final answer, to be replayed to retries: successes and
 * business refusals are; a 400 (the request was refused as invalid, so the corrected retry must
 * run), a 429 (retry later) and any 5xx (a retry must run again) are not.
 */
export function isReplayableStatus(status: number): boolean {
  if (status >= 200 && status < 300) return true;
  return status > 400 && status < 500 && status !== 429;
}

/**
 * Completes or releases the idempotency claim a request holds, from Fastify's onSend hook: the
 * payload there is the exact text about to be written, whether it came from the envelope hook
 * or the error filter, so the stored copy is byte for byte what the client got.
 * The write finishes before the response leaves, so a retry never finds the key still in progress.
 */
@Injectable()
export class IdempotencyResponseRecorder implements OnModuleInit {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly idempotency: IdempotencyService,
  ) {}

  // Fastify attaches hooks to routes when it becomes ready (at listen), so adding it here,
  // after Nest registered the routes, still covers every one of them.
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onSend', (request, reply, payload, done) => {
      const claim = request.idempotencyClaim;
      // Callback style so that every other response passes synchronously: a hook that always
      // returned a promise would delay sends that some handlers (Swagger's) do not wait for.
      if (!claim) return done(null, payload);
      request.idempotencyClaim = undefined;
      void this.record(request, claim, reply.statusCode, payload).then(() => done(null, payload));
    });
  }

  private async record(request: FastifyRequest, claim: IdempotencyClaim, status: number, payload: unknown): Promise<void> {
    try {
      if (isReplayableStatus(status) && typeof payload === 'string') {
        const stored = await this.idempotency.complete(claim, { status, body: payload });
        if (!stored) this.logger.warn(`Request ${request.id} lost its idempotency claim (lock timeout passed); response not stored`);
      } else {
        await this.idempotency.release(claim);
      }
    } catch (error) {
      // The response still goes out; the claim stays in progress until the lock timeout frees it.
      this.logger.error(`Could not record the idempotent response of request ${request.id}`, error instanceof Error ? error.stack : String(error));
    }
  }
}
