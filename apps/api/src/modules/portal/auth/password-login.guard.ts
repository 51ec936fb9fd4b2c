import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { LoginRequest } from '@gateway/contracts';
import { LoginService } from '@gateway/domain/identity';
import { DomainError } from '@gateway/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import passport from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import { createValidationPipe } from '../../../http/validation.pipe';

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
 * instances (tests) never share a strategy. LoginService does the throttled argon2id check and
 * throws the domain errors, which pass through unchanged.
 *
 * Guards run before pipes, so the body is validated here, with the app's own pipe, before anything
 * is looked up or hashed: a number or an object for `email` or `password` is a 400 whatever the
 * account. Passport-local would also take the fields from the query string; credentials in a URL
 * end up in proxy and browser logs, so a query naming them is refused and the strategy is shown
 * only the validated body.
 */
@Injectable()
export class PasswordLoginGuard implements CanActivate {
  private readonly authenticator = new passport.Authenticator();
  private readonly validation = createValidationPipe();

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

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const query = (request.query ?? {}) as Record<string, unknown>;
    const inQuery = CREDENTIAL_FIELDS.filter((field) => field in query);
    if (inQuery.length) {
      throw new DomainError('validation_error', 'The request is invalid.', {
        query: [`${inQuery.join(' and ')} must be sent in the JSON body, never in the URL`],
      });
    }
    const credentials = (await this.validation.transform(request.body, { type: 'body', metatype: LoginRequest })) as LoginRequest;
    const onlyTheBody = { body: { email: credentials.email, password: credentials.password }, query: {} };
    request.passwordLogin = await new Promise<PasswordLogin>((resolve, reject) => {
      const middleware = this.authenticator.authenticate(STRATEGY, { session: false }, (error: unknown, user: PasswordLogin | false) => {
        if (error) return reject(error);
        // Passport's own refusal: a field empty after validation (an empty string).
        if (!user) return reject(new DomainError('validation_error', 'The request is invalid.', { body: ['email and password are required strings'] }));
        resolve(user);
      });
      // Passport's middleware signature is Express's; it reads only `body` and `query` here.
      (middleware as (req: unknown, res: unknown, next: (error?: unknown) => void) => void)(onlyTheBody, reply, reject);
    });
    return true;
  }
}

const CREDENTIAL_FIELDS = ['email', 'password'] as const;
