/**
 * @isolated-modules argon2 is mocked, so the hasher must load through Jest's registry to see the mock.
 */
import * as argon2 from 'argon2';
import { loadConfig } from '@gateway/platform';
import { DUMMY_HASH, PasswordHasher } from './password-hasher';

// The real argon2, its check watched: which hash an unknown address is checked against.
jest.mock('argon2', () => {
  const actual = jest.requireActual<typeof import('argon2')>('argon2');
  return { ...actual, verify: jest.fn(actual.verify) };
});

const PASSWORD = 'correct horse battery staple';

function hasher(env: Record<string, string> = {}): PasswordHasher {
  return new PasswordHasher(loadConfig(env));
}

describe('PasswordHasher', () => {
  it('checks unknown addresses against a hash of the same cost as real ones, so both take as long', async () => {
    // `$argon2id$v=19$m=65536,t=3,p=4$…`: same algorithm, version, memory, iterations and lanes.
    const real = await hasher().hash(PASSWORD);
    expect(DUMMY_HASH.split('$').slice(0, 4)).toEqual(real.split('$').slice(0, 4));
  });

  it('answers false for a missing hash, even for the password nobody kept', async () => {
    await expect(hasher().verify(null, PASSWORD)).resolves.toBe(false);
  });

  it('answers false, never throws, for a stored hash argon2 cannot read', async () => {
    await expect(hasher().verify('not-a-hash', PASSWORD)).resolves.toBe(false);
  });

  it('refuses at once with service_unavailable when every hashing slot and the queue are taken', async () => {
    const busy = hasher({ PORTAL_PASSWORD_HASH_CONCURRENCY: '1', PORTAL_PASSWORD_HASH_QUEUE: '1' });
    const running = busy.verify(null, PASSWORD);
    const waiting = busy.verify(null, PASSWORD);
    expect(() => busy.assertRoom()).toThrow(expect.objectContaining({ code: 'service_unavailable' }));
    await expect(busy.verify(null, PASSWORD)).rejects.toMatchObject({ code: 'service_unavailable' });
    await expect(busy.hash(PASSWORD)).rejects.toMatchObject({ code: 'service_unavailable' });
    await expect(Promise.all([running, waiting])).resolves.toEqual([false, false]);
    busy.assertRoom();
    await expect(busy.verify(null, PASSWORD)).resolves.toBe(false);
  });

  describe('at a cost the operator sets (PORTAL_PASSWORD_HASH_*)', () => {
    const OWASP_19_MIB = { PORTAL_PASSWORD_HASH_MEMORY_KIB: '19456', PORTAL_PASSWORD_HASH_ITERATIONS: '2', PORTAL_PASSWORD_HASH_PARALLELISM: '1' };

    it('hashes new passwords at that cost, and still checks those hashed at another', async () => {
      const atDefault = await hasher().hash(PASSWORD);
      const cheaper = hasher(OWASP_19_MIB);
      const hash = await cheaper.hash(PASSWORD);
      expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      await expect(cheaper.verify(atDefault, PASSWORD)).resolves.toBe(true);
      await expect(cheaper.verify(atDefault, 'not the password')).resolves.toBe(false);
      await expect(hasher().verify(hash, PASSWORD)).resolves.toBe(true);
    });

    it('checks unknown addresses against a hash of that cost too', async () => {
      const verify = jest.mocked(argon2.verify);
      verify.mockClear();
      await expect(hasher(OWASP_19_MIB).verify(null, PASSWORD)).resolves.toBe(false);
      await expect(hasher().verify(null, PASSWORD)).resolves.toBe(false);
      expect(verify.mock.calls.map(([hash]) => hash.split('$')[3])).toEqual(['m=19456,t=2,p=1', 'm=65536,t=3,p=4']);
      expect(verify.mock.calls[1][0]).toBe(DUMMY_HASH);
    });

    it('upgrades a hash of another cost once its password is known, and leaves one of the same cost', async () => {
      const cheaper = hasher(OWASP_19_MIB);
      const upgraded = await cheaper.upgrade(DUMMY_HASH, PASSWORD);
      expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      await expect(cheaper.verify(upgraded, PASSWORD)).resolves.toBe(true);
      await expect(cheaper.upgrade(upgraded as string, PASSWORD)).resolves.toBeNull();
    });

    it('leaves the upgrade to a later sign-in when every hashing slot is taken', async () => {
      const busy = hasher({ ...OWASP_19_MIB, PORTAL_PASSWORD_HASH_CONCURRENCY: '1', PORTAL_PASSWORD_HASH_QUEUE: '0' });
      const running = busy.verify(null, PASSWORD);
      await expect(busy.upgrade(DUMMY_HASH, PASSWORD)).resolves.toBeNull();
      await running;
    });

    it("accepts OWASP's argon2id profiles and refuses less work than its cheapest (7 MiB × 5 passes)", () => {
      const cost = (memory: number, passes: number) => ({ PORTAL_PASSWORD_HASH_MEMORY_KIB: String(memory), PORTAL_PASSWORD_HASH_ITERATIONS: String(passes) });
      for (const [memory, passes] of [[47_104, 1], [19_456, 2], [12_288, 3], [9_216, 4], [7_168, 5]]) {
        expect(loadConfig(cost(memory, passes)).portal.passwordHashing).toMatchObject({ memoryKiB: memory, iterations: passes, parallelism: 4 });
      }
      expect(() => loadConfig(cost(7_168, 4))).toThrow('PORTAL_PASSWORD_HASH_ITERATIONS');
      expect(() => loadConfig(cost(19_456, 1))).toThrow('PORTAL_PASSWORD_HASH_ITERATIONS');
      expect(() => loadConfig(cost(4_096, 20))).toThrow('PORTAL_PASSWORD_HASH_MEMORY_KIB');
      expect(() => loadConfig({ PORTAL_PASSWORD_HASH_PARALLELISM: '0' })).toThrow('PORTAL_PASSWORD_HASH_PARALLELISM');
      expect(loadConfig({}).portal.passwordHashing).toMatchObject({ memoryKiB: 65_536, iterations: 3, parallelism: 4 });
    });
  });

  it('defaults to one hash per core (at most 3) with twice as many waiting', () => {
    const { concurrency, maxWaiting } = loadConfig({}).portal.passwordHashing;
    expect(concurrency).toBeGreaterThanOrEqual(1);
    expect(concurrency).toBeLessThanOrEqual(3);
    expect(maxWaiting).toBe(2 * concurrency);
    expect(loadConfig({ PORTAL_PASSWORD_HASH_CONCURRENCY: '8', PORTAL_PASSWORD_HASH_QUEUE: '0' }).portal.passwordHashing).toMatchObject({ concurrency: 8, maxWaiting: 0 });
    expect(() => loadConfig({ PORTAL_PASSWORD_HASH_CONCURRENCY: '0' })).toThrow('PORTAL_PASSWORD_HASH_CONCURRENCY');
  });
});
