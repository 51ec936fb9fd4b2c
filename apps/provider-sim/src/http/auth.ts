import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SimulatorContext } from '../context';
import type { Account } from '../state/accounts';
import { failure } from './envelope';

/*
 * The authenticated account is kept beside the request rather than on it, so
 * the simulator does not augment Fastify's global request type for every
 * other app that imports it in-process.
 */
const accountByRequest = new WeakMap<FastifyRequest, Account>();

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** onRequest hook: `Authorization: Bearer <secret key>` selects the account; anything else is 401. */
export function bearerAuth(ctx: SimulatorContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const secretKey = BEARER.exec(request.headers.authorization ?? '')?.[1];
    const account = secretKey === undefined ? undefined : ctx.accounts.bySecret(secretKey);
    if (!account) {
      reply.code(401).send(failure('Invalid key', 401));
      return reply;
    }
    accountByRequest.set(request, account);
    return undefined;
  };
}

export function accountOf(request: FastifyRequest): Account {
  const account = accountByRequest.get(request);
  if (!account) throw new Error('accountOf() used on a route without bearerAuth');
  return account;
}
