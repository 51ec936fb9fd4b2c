import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/** The Redis tests use when REDIS_URL is not set: the local one of a developer's machine, if any. */
const LOCAL_REDIS_URL = 'redis://127.0.0.1:6379';
const WORKSPACE_ROOT = resolve(__dirname, '../../../..');

export interface TestRedis {
  url: string;
  /** False only when REDIS_URL is unset and no local Redis answers: the Redis tests are then not declared. */
  available: boolean;
}

/**
 * The Redis for tests that need one, known before the tests are declared. REDIS_URL set (as in
 * CI) means "these tests must run": a Redis that does not answer there throws, failing the test
 * file with this message, never leaving the tests out silently. Without REDIS_URL, a developer's
 * local Redis is used when it answers; otherwise the caller declares no Redis test, with a warning.
 */
export function testRedis(what: string): TestRedis {
  const configured = process.env.REDIS_URL;
  const url = configured || LOCAL_REDIS_URL;
  const available = answersPing(url);
  if (!available && configured) {
    throw new Error(`REDIS_URL is set (${configured}) but Redis does not answer PING there: start Redis, or unset REDIS_URL to leave out ${what}.`);
  }
  if (!available) console.warn(`Redis is not reachable at ${url} and REDIS_URL is not set: ${what} are left out of this run.`);
  return { url, available };
}

/** Asks Redis for PONG in a child process, synchronously, so the answer is known at declaration time. */
function answersPing(url: string): boolean {
  const probe = `
    const { Redis } = require('ioredis');
    const redis = new Redis(process.argv[1], { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => {});
    redis.connect().then(() => redis.ping()).then((r) => { console.log(r); redis.disconnect(); }, () => process.exit(1));
  `;
  const result = spawnSync(process.execPath, ['-e', probe, url], { cwd: WORKSPACE_ROOT, encoding: 'utf8', timeout: 10_000 });
  return result.status === 0 && result.stdout.trim() === 'PONG';
}
