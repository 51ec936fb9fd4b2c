import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

/**
 * An AbortSignal that fires when the client's connection closes before the answer was sent, so a
 * long-poll stops waiting for a client that is gone (and frees what it holds) instead of running
 * to the end of its wait. It also fires once the answer has been sent, which changes nothing then.
 */
export const ClientGone = createParamDecorator((_: unknown, ctx: ExecutionContext): AbortSignal => {
  const response = ctx.switchToHttp().getResponse<FastifyReply>().raw;
  const controller = new AbortController();
  if (response.destroyed || response.writableEnded) controller.abort();
  else response.once('close', () => controller.abort());
  return controller.signal;
});
