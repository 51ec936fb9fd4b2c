import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { LoginService } from '@gateway/domain/identity';
import { DomainError } from '@gateway/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import passport from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';

/** What the password step establishes: whose password was right. */
export interface PasswordLogin {
  userId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by PasswordLoginGuard once the e-mail and password are right. */
    passwordLogin?: PasswordLogin;
  }
}

const STRATEGY = 'portal-password';

/**
 * The password step of POST /auth/login: passport's local strategy, invoked explicitly by this
 * guard. It has its own `Authenticator` rather than passport's process-wide one, so two app
 * instances (tests) never share a strategy. The strategy reads `email` and `password` from the
 * JSON body; LoginService does the throttled argon2id check and throws the domain errors, which
 * pass through unchanged. Passport's own refusal (a field missing) becomes a validation error.
 */
@Injectable()
export class PasswordLoginGuard implements CanActivate {
  private readonly authenticator = new passport.Authenticator();

  constructor(login: LoginService) {
    this.authenticator.use(
      STRATEGY,
      new LocalStrategy({ usernameField: 'email', passwordField: 'password', session: false }, (email, password, done) => {
        login.verifyPassword(email, password).then(
          (userId) => done(null, { userId } satisfies PasswordLogin),
          (error: unknown) => done(error),
        );
      }),
    );
  }

  canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return new Promise((resolve, reject) => {
      const middleware = this.authenticator.authenticate(STRATEGY, { session: false }, (error: unknown, user: PasswordLogin | false) => {
        if (error) return reject(error);
        if (!user) return reject(new DomainError('validation_error', 'The request is invalid.', { body: ['email and password are required strings'] }));
        request.passwordLogin = user;
        resolve(true);
      });
      // Passport's middleware signature is Express's; it only reads body and query here.
      (middleware as (req: unknown, res: unknown, next: (error?: unknown) => void) => void)(request, reply, reject);
    });
  }
}
