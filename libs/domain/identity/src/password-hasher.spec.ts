import { loadConfig } from '@gateway/platform';
import { DUMMY_HASH, PasswordHasher } from './password-hasher';

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

  it('defaults to one hash per core (at most 3) with twice as many waiting', () => {
    const { concurrency, maxWaiting } = loadConfig({}).portal.passwordHashing;
    expect(concurrency).toBeGreaterThanOrEqual(1);
    expect(concurrency).toBeLessThanOrEqual(3);
    expect(maxWaiting).toBe(2 * concurrency);
    expect(loadConfig({ PORTAL_PASSWORD_HASH_CONCURRENCY: '8', PORTAL_PASSWORD_HASH_QUEUE: '0' }).portal.passwordHashing).toEqual({ concurrency: 8, maxWaiting: 0 });
    expect(() => loadConfig({ PORTAL_PASSWORD_HASH_CONCURRENCY: '0' })).toThrow('PORTAL_PASSWORD_HASH_CONCURRENCY');
  });
});
