import type { FastifyInstance, FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SimulatorContext } from '../context';
import { failure } from './envelope';

/**
 * Applies the latency / fail_next (with fail_status) / timeout_next knobs to the API routes of
 * the plugin it is registered in. Must be registered after bearerAuth so
 * unauthenticated calls do not consume injected faults.
 */
export function registerFaultInjection(app: FastifyInstance, ctx: SimulatorContext): void {
  const hangBeforeResponding = new WeakSet<FastifyRequest>();

  /** Sleeps, but wakes up early when the simulator closes. Returns false if it was cut short. */
  const pause = async (ms: number): Promise<boolean> => {
    try {
      await sleep(ms, undefined, { signal: ctx.shutdown });
      return true;
    } catch {
      return false;
    }
  };

  app.addHook('onRequest', async (request, reply) => {
    const knobs = ctx.knobs.current;
    if (knobs.latencyMs > 0) await pause(knobs.latencyMs);

    if (ctx.knobs.takeFailure()) {
      reply.code(knobs.failStatus).send(failure('Simulated provider error (fail_next)', knobs.failStatus));
      return reply;
    }
    if (ctx.knobs.takeTimeout()) {
      if (knobs.timeoutMode === 'after_processing') {
        hangBeforeResponding.add(request);
        return undefined;
      }
      // The client is expected to give up long before this; the request is dropped unprocessed.
      const waitedFully = await pause(knobs.hangMs);
      const status = waitedFully ? 504 : 503;
      reply.code(status).send(failure(waitedFully ? 'Simulated upstream timeout (timeout_next)' : 'Simulator is shutting down', status));
      return reply;
    }
    return undefined;
  });

  // after_processing: the work is done, only the answer is late.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (hangBeforeResponding.has(request)) {
      hangBeforeResponding.delete(request);
      await pause(ctx.knobs.current.hangMs);
    }
    return payload;
  });
}
