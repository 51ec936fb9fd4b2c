import { applyDecorators, type CanActivate, type ExecutionContext, Inject, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiHeader } from '@nestjs/swagger';
import { PORTAL_TOTP_HEADER } from '@gateway/contracts';
import { isLargeWithdrawal, TotpService } from '@gateway/domain/identity';
import { Amount, APP_CONFIG, type AppConfig, DomainError, isCurrency } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import type { PortalSessionContext } from './portal-access';

const REQUIRE_TOTP = 'gateway:require-totp';

export interface TotpConditionContext {
  request: FastifyRequest;
  session: PortalSessionContext;
  config: AppConfig;
}

/** Decides per request whether the code is needed (e.g. only in live mode, only above a threshold). */
export type TotpCondition = (context: TotpConditionContext) => boolean;

/** The session works in live mode (rotating, issuing or revealing live keys). */
export const IN_LIVE_MODE: TotpCondition = ({ session }) => session.mode === 'live';

/** The request body asks for live mode (the switch itself). */
export const SWITCHING_TO_LIVE: TotpCondition = ({ request }) => (request.body as { mode?: unknown } | undefined)?.mode === 'live';

/**
 * A withdrawal above LARGE_WITHDRAWAL_THRESHOLD (body `amount`, `currency` defaulting to NGN).
 * An amount or currency that cannot be read counts as large: validation refuses it right after,
 * and the check must never be skipped by a malformed body.
 */
export const LARGE_WITHDRAWAL: TotpCondition = ({ request, config }) => {
  const body = (request.body ?? {}) as { amount?: unknown; currency?: unknown };
  const currency = body.currency ?? 'NGN';
  if (!isCurrency(currency)) return true;
  try {
    return isLargeWithdrawal(Amount.parse(body.amount), currency, config.largeWithdrawalThresholds);
  } catch {
    return true;
  }
};

/**
 * Step-up with the user's TOTP code, sent in the `X-TOTP-Code` header, for the actions the spec
 * names: switching to live mode, rotating or revealing live keys, large withdrawals. Use after
 * `@PortalAccess({session: 'active', …})`; the code is checked with the usual window, replay
 * refusal and lockout (403 `totp_required`, 401 `totp_invalid`, 429 `too_many_attempts`).
 */
export function RequireTotp(when?: TotpCondition): MethodDecorator {
  return applyDecorators(
    SetMetadata(REQUIRE_TOTP, when ?? (() => true)),
    UseGuards(TotpGuard),
    ApiHeader({
      name: 'X-TOTP-Code',
      required: !when,
      description: `The current 6-digit code of the user's authenticator app${when ? ' (required when this action is a sensitive one: see the description)' : ''}. Missing: 403 \`totp_required\`; wrong or reused: 401 \`totp_invalid\`; 5 wrong in a row: 429 \`too_many_attempts\`.`,
    }),
  );
}

@Injectable()
export class TotpGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly totp: TotpService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const when = this.reflector.get<TotpCondition | undefined>(REQUIRE_TOTP, context.getHandler());
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const session = request.portalSession;
    if (!when || !session) throw new DomainError('authentication_failed', 'Sign in to the portal first.');
    if (!when({ request, session, config: this.config })) return true;

    if (!(await this.totp.isEnabled(session.actor.userId))) {
      throw new DomainError('totp_required', 'This action needs two-factor authentication: enable TOTP first (POST /api/portal/me/totp/enroll).');
    }
    const header = request.headers[PORTAL_TOTP_HEADER];
    const code = typeof header === 'string' ? header.trim() : '';
    if (!code) throw new DomainError('totp_required', 'This action needs the current code of your authenticator app in the X-TOTP-Code header.');
    await this.totp.verify(session.actor.userId, code);
    return true;
  }
}
