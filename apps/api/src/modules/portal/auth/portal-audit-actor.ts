import type { AuditActor } from '@gateway/domain/audit';
import type { FastifyRequest } from 'fastify';
import type { PortalSessionContext } from './portal-access-rule';

/** The signed-in person as the audit log records them: their user id, e-mail and client address. */
export function portalAuditActor(session: PortalSessionContext, request: FastifyRequest): AuditActor {
  return { type: 'user', id: session.actor.userId, label: session.actor.email, ip: request.clientIp ?? request.ip };
}
