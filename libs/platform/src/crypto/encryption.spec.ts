/**
 * @isolated-modules the ephemeral key is made, with its warning, once per process: the module must be this file's own.
 */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../config';
import { DecryptionError, Encryptor, encryptorFromConfig, parseEncryptionKeys } from './encryption';

const key = (id: string) => ({ id, key: randomBytes(32) });

describe('Encryptor (AES-256-GCM with key ids)', () => {
  it('round-trips and never repeats a ciphertext', () => {
    const encryptor = new Encryptor([key('k1')]);
    const a = encryptor.encrypt('JBSWY3DPEHPK3PXP', 'ctx');
    const b = encryptor.encrypt('JBSWY3DPEHPK3PXP', 'ctx');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.k1\./);
    expect(encryptor.decrypt(a, 'ctx')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('keeps old values readable after rotation and reports them for re-encryption', () => {
    const k1 = key('k1');
    const sealedWithOld = new Encryptor([k1]).encrypt('secret');
    const rotated = new Encryptor([key('k2'), k1]);
    expect(rotated.decrypt(sealedWithOld)).toBe('secret');
    expect(rotated.needsRotation(sealedWithOld)).toBe(true);
    expect(rotated.needsRotation(rotated.encrypt('secret'))).toBe(false);
    expect(rotated.currentKeyId).toBe('k2');
  });

  it('refuses a value whose key is no longer configured', () => {
    const sealed = new Encryptor([key('gone')]).encrypt('secret');
    expect(() => new Encryptor([key('k1')]).decrypt(sealed)).toThrow(DecryptionError);
  });

  it('refuses a tampered ciphertext, a tampered tag and another context', () => {
    const encryptor = new Encryptor([key('k1')]);
    const sealed = encryptor.encrypt('secret', 'user_totp:a');
    const parts = sealed.split('.');
    const flip = (text: string) => Buffer.from(Buffer.from(text, 'base64url').map((byte, i) => (i === 0 ? byte ^ 1 : byte))).toString('base64url');
    expect(() => encryptor.decrypt([...parts.slice(0, 4), flip(parts[4])].join('.'), 'user_totp:a')).toThrow(DecryptionError);
    expect(() => encryptor.decrypt([...parts.slice(0, 3), flip(parts[3]), parts[4]].join('.'), 'user_totp:a')).toThrow(DecryptionError);
    expect(() => encryptor.decrypt(sealed, 'user_totp:b')).toThrow(DecryptionError);
    expect(() => encryptor.decrypt('plain text')).toThrow(DecryptionError);
  });
});

describe('ENCRYPTION_KEYS', () => {
  const b64 = () => randomBytes(32).toString('base64');

  it('parses ids and keys, the first being current', () => {
    const keys = parseEncryptionKeys(`k2:${b64()}, k1:${b64()}`);
    expect(Array.isArray(keys) && keys.map((k) => k.id)).toEqual(['k2', 'k1']);
  });

  it.each([
    ['k1', 'each entry must be'],
    [`k1:${randomBytes(16).toString('base64')}`, 'must be 32 bytes'],
    [`k1:${'A'.repeat(43)}=,k1:${'A'.repeat(43)}=`, 'appears twice'],
    [`bad id:${'A'.repeat(44)}`, 'each entry must be'],
  ])('refuses %s', (text, message) => {
    expect(parseEncryptionKeys(text)).toEqual(expect.stringContaining(message));
  });

  it('production refuses to load without keys; development and test fall back to an ephemeral key with a warning', () => {
    // Production also refuses the provider simulator's development secrets, so real-looking ones are given.
    const providerSecrets = { PROVIDER_TEST_SECRET_KEY: 'sk_test_x', PROVIDER_LIVE_SECRET_KEY: 'sk_live_x' };
    expect(() => loadConfig({ NODE_ENV: 'production', ...providerSecrets })).toThrow('Configuration error: ENCRYPTION_KEYS is missing');
    expect(loadConfig({ NODE_ENV: 'production', ENCRYPTION_KEYS: `k1:${b64()}`, ...providerSecrets }).encryptionKeys).toHaveLength(1);
    expect(() => loadConfig({ ENCRYPTION_KEYS: 'k1:short' })).toThrow('Configuration error: ENCRYPTION_KEYS is invalid');

    const warnings: string[] = [];
    const dev = encryptorFromConfig(loadConfig({ NODE_ENV: 'development' }), (m) => warnings.push(m));
    const again = encryptorFromConfig(loadConfig({ NODE_ENV: 'test' }), (m) => warnings.push(m));
    expect(again.decrypt(dev.encrypt('shared within the process'))).toBe('shared within the process');
    expect(warnings).toEqual([expect.stringContaining('ENCRYPTION_KEYS is not set')]);
    expect(() => encryptorFromConfig({ env: 'production', encryptionKeys: [] }, () => undefined)).toThrow(/required in production/);
  });

  it('reads LARGE_WITHDRAWAL_THRESHOLD as NGN or per-currency pairs', () => {
    expect(loadConfig({}).largeWithdrawalThresholds).toEqual({ NGN: '1000000' });
    expect(loadConfig({ LARGE_WITHDRAWAL_THRESHOLD: 'NGN:500000,USD:2500.50' }).largeWithdrawalThresholds).toEqual({ NGN: '500000', USD: '2500.50' });
    expect(() => loadConfig({ LARGE_WITHDRAWAL_THRESHOLD: 'EUR:5' })).toThrow('LARGE_WITHDRAWAL_THRESHOLD is invalid');
  });
});
