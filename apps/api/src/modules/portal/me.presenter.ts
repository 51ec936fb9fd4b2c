import { Injectable } from '@nestjs/common';
import type { MeResponse } from '@gateway/contracts';
import { DevelopersService } from '@gateway/domain/developers';
import { type ResolvedSession, SessionsService, TotpService } from '@gateway/domain/identity';
import { toMeResponse } from './portal.mapper';

/** Gathers what `GET /api/portal/me` (and a completed login) shows about the signed-in person. */
@Injectable()
export class MePresenter {
  constructor(
    private readonly sessions: SessionsService,
    private readonly developers: DevelopersService,
    private readonly totp: TotpService,
  ) {}

  async present(session: ResolvedSession): Promise<MeResponse> {
    const developer = session.actor.account ? await this.developers.get(session.actor.account.developerId) : null;
    return toMeResponse(session, developer, await this.totp.isEnabled(session.actor.userId));
  }

  /** For a session just started: looks it up by its token first. */
  async describe(token: string): Promise<MeResponse> {
    const session = await this.sessions.resolve(token);
    if (!session) throw new Error('a session just started could not be resolved');
    return this.present(session);
  }
}
