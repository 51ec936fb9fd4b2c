import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { TotpService } from '@gateway/domain/identity';
import { DomainError, loadConfig } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import type { PortalSessionContext } from './portal-access';
import { IN_LIVE_MODE, LARGE_WITHDRAWAL, RequireTotp, SWITCHING_TO_LIVE, type TotpCondition, TotpGuard } from './require-totp';

const config = loadConfig({ NODE_ENV: 'test', LARGE_WITHDRAWAL_THRESHOLD: 'NGN:1000000,USD:5000' });

const session = (mode: 'test' | 'live' = 'test'): PortalSessionContext =>
  ({ id: 's', token: 't', stage: 'active', mode, expiresAt: new Date(), idleExpiresAt: new Date(), actor: { userId: 'u1' } }) as PortalSessionContext;

const request = (body: unknown, headers: Record<string, string> = {}, mode: 'test' | 'live' = 'test') =>
  ({ body, headers, portalSession: session(mode) }) as unknown as FastifyRequest;

describe('step-up conditions', () => {
  const decide = (condition: TotpCondition, body: unknown, mode: 'test' | 'live' = 'test') =>
    condition({ request: request(body), session: session(mode), config });

  it('a withdrawal of exactly the NGN threshold needs no code; one kobo more does', () => {
    expect(decide(LARGE_WITHDRAWAL, { amount: 1_000_000 })).toBe(false);
    expect(decide(LARGE_WITHDRAWAL, { amount: 1_000_000.01 })).toBe(true);
    expect(decide(LARGE_WITHDRAWAL, { amount: '999999.99', currency: 'NGN' })).toBe(false);
  });

  it('uses the threshold of the currency and fails safe on anything unreadable', () => {
    expect(decide(LARGE_WITHDRAWAL, { amount: 5000, currency: 'USD' })).toBe(false);
    expect(decide(LARGE_WITHDRAWAL, { amount: 5000.01, currency: 'USD' })).toBe(true);
    expect(decide(LARGE_WITHDRAWAL, { amount: 1, currency: 'GBP' })).toBe(true);
    expect(decide(LARGE_WITHDRAWAL, { amount: 'lots' })).toBe(true);
    expect(decide(LARGE_WITHDRAWAL, { amount: 10, currency: 'EUR' })).toBe(true);
    expect(decide(LARGE_WITHDRAWAL, undefined)).toBe(true);
  });

  it('live mode and the switch to it', () => {
    expect(decide(IN_LIVE_MODE, {}, 'live')).toBe(true);
    expect(decide(IN_LIVE_MODE, {}, 'test')).toBe(false);
    expect(decide(SWITCHING_TO_LIVE, { mode: 'live' })).toBe(true);
    expect(decide(SWITCHING_TO_LIVE, { mode: 'test' })).toBe(false);
  });
});

describe('TotpGuard', () => {
  class WithdrawalsController {
    @RequireTotp(LARGE_WITHDRAWAL)
    withdraw(): string {
      return 'withdrawn';
    }
  }

  function run(body: unknown, headers: Record<string, string>, totp: Partial<TotpService>) {
    const guard = new TotpGuard(new Reflector(), totp as TotpService, config);
    const http = { getRequest: () => request(body, headers) };
    const context = { getHandler: () => WithdrawalsController.prototype.withdraw, switchToHttp: () => http } as unknown as ExecutionContext;
    return guard.canActivate(context);
  }

  const enabled = (verify = jest.fn().mockResolvedValue(undefined)) => ({ isEnabled: jest.fn().mockResolvedValue(true), verify });

  it('lets a small withdrawal through without asking for a code', async () => {
    const totp = enabled();
    await expect(run({ amount: 500 }, {}, totp)).resolves.toBe(true);
    expect(totp.verify).not.toHaveBeenCalled();
  });

  it('asks for the X-TOTP-Code header on a large one and checks it', async () => {
    const totp = enabled();
    await expect(run({ amount: 2_000_000 }, {}, totp)).rejects.toMatchObject({ code: 'totp_required' });
    await expect(run({ amount: 2_000_000 }, { 'x-totp-code': '123456' }, totp)).resolves.toBe(true);
    expect(totp.verify).toHaveBeenCalledWith('u1', '123456');
  });

  it('passes on the verification refusal and requires TOTP to be enabled first', async () => {
    const refused = enabled(jest.fn().mockRejectedValue(new DomainError('totp_invalid', 'The code is not valid.')));
    await expect(run({ amount: 2_000_000 }, { 'x-totp-code': '000000' }, refused)).rejects.toMatchObject({ code: 'totp_invalid' });
    const disabled = { isEnabled: jest.fn().mockResolvedValue(false), verify: jest.fn() };
    await expect(run({ amount: 2_000_000 }, { 'x-totp-code': '123456' }, disabled)).rejects.toMatchObject({ code: 'totp_required' });
    expect(disabled.verify).not.toHaveBeenCalled();
  });
});
