import type { ApiKeyKind, Mode, Scope } from '@gateway/contracts';
import type { IpRule } from '@gateway/domain/api-keys';
import type { DeveloperContext } from '@gateway/platform';

/** Who is calling, as established by the API key guard. */
export interface ApiKeyPrincipal {
  developerId: string;
  mode: Mode;
  keyId: string;
  kind: ApiKeyKind;
  /** Empty = full access. */
  scopes: Scope[];
  /** Addresses this key may be used from; empty = any. */
  allowlist: IpRule[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the API key guard on authenticated merchant routes. */
    principal?: ApiKeyPrincipal;
    /** The client address after trusted-proxy resolution (see client-ip.ts). */
    clientIp?: string;
  }
}

/** The tenant a merchant's request acts for, with the request's id (what its postings and events record). */
export function developerContext(principal: ApiKeyPrincipal, requestId: string): DeveloperContext {
  return { developerId: principal.developerId, mode: principal.mode, requestId };
}
