import { authenticator, totp } from 'otplib';
import { KeyEncodings } from 'otplib/core';
import { matchTotpStep, otpauthUrl, totpCodeAt, totpStepAt } from './totp-codes';

// RFC 6238 appendix B, SHA-1 seed "12345678901234567890". Our codes have 6 digits: the same
// dynamic truncation modulo 10^6, i.e. the last six digits of the RFC's 8-digit values.
const RFC_SEED_ASCII = '12345678901234567890';
const RFC_SEED_BASE32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_VECTORS: Array<[number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP codes (RFC 6238)', () => {
  it('otplib reproduces the RFC 6238 8-digit SHA-1 vectors', () => {
    for (const [seconds, expected] of RFC_VECTORS) {
      expect(totp.clone({ digits: 8, epoch: seconds * 1000, encoding: KeyEncodings.ASCII }).generate(RFC_SEED_ASCII)).toBe(expected);
    }
  });

  it.each(RFC_VECTORS)('at T=%is our 6-digit code is the last six digits of %s', (seconds, expected) => {
    const at = new Date(seconds * 1000);
    expect(authenticator.clone({ encoding: KeyEncodings.ASCII }).encode(RFC_SEED_ASCII)).toBe(RFC_SEED_BASE32);
    expect(totpCodeAt(RFC_SEED_BASE32, at)).toBe(expected.slice(-6));
    expect(matchTotpStep(RFC_SEED_BASE32, expected.slice(-6), at)).toBe(totpStepAt(at));
  });

  it('accepts the previous and the next step and nothing further', () => {
    const at = new Date(1111111109 * 1000);
    const step = totpStepAt(at);
    const codeAtStep = (offset: number) => totpCodeAt(RFC_SEED_BASE32, new Date((step + offset) * 30_000));
    expect(matchTotpStep(RFC_SEED_BASE32, codeAtStep(-1), at)).toBe(step - 1);
    expect(matchTotpStep(RFC_SEED_BASE32, codeAtStep(1), at)).toBe(step + 1);
    expect(matchTotpStep(RFC_SEED_BASE32, codeAtStep(-2), at)).toBeNull();
    expect(matchTotpStep(RFC_SEED_BASE32, codeAtStep(2), at)).toBeNull();
  });

  it('refuses anything that is not six digits without computing', () => {
    const at = new Date(59_000);
    expect(matchTotpStep(RFC_SEED_BASE32, '94287082', at)).toBeNull();
    expect(matchTotpStep(RFC_SEED_BASE32, ' 287082', at)).toBeNull();
    expect(matchTotpStep(RFC_SEED_BASE32, '', at)).toBeNull();
  });

  it('builds an otpauth URL authenticator apps can scan', () => {
    const url = otpauthUrl(RFC_SEED_BASE32, 'ada@example.com', 'Payment Gateway');
    expect(url).toMatch(/^otpauth:\/\/totp\/Payment%20Gateway:ada%40example\.com\?/);
    expect(url).toContain(`secret=${RFC_SEED_BASE32}`);
    expect(url).toContain('period=30');
  });
});
