import { isHttpUrl } from './http/validation';

/** Settings for running the simulator as a standalone process (see main.ts). */
export interface SimulatorConfig {
  port: number;
  host: string;
  secretKeys: string[];
  webhookUrl: string | undefined;
  publicUrl: string | undefined;
  transferDelayMs: number | undefined;
  /** Callback deliveries in flight at once; unset: one at a time, in order. */
  callbackConcurrency: number | undefined;
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_SECRET_KEYS = ['sk_sim_test_secret', 'sk_sim_live_secret'];

/** A bad setting; the message is one line that names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * Reads PORT, HOST, SIM_SECRET_KEYS, SIM_WEBHOOK_URL, SIM_PUBLIC_URL,
 * SIM_TRANSFER_DELAY_MS and SIM_CALLBACK_CONCURRENCY. Empty values count as unset.
 */
export function loadConfig(env: Env): SimulatorConfig {
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const integer = (name: string, min: number, max: number): number | undefined => {
    const raw = read(name);
    if (raw === undefined) return undefined;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
    }
    return Number(raw);
  };
  const url = (name: string): string | undefined => {
    const raw = read(name);
    if (raw !== undefined && !isHttpUrl(raw)) throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
    return raw;
  };

  const rawKeys = read('SIM_SECRET_KEYS');
  const secretKeys = rawKeys === undefined ? DEFAULT_SECRET_KEYS : rawKeys.split(',').map((key) => key.trim());
  if (secretKeys.some((key) => key === '' || /\s/.test(key))) {
    throw new ConfigError('SIM_SECRET_KEYS must be a comma-separated list of non-empty keys without spaces');
  }
  if (new Set(secretKeys).size !== secretKeys.length) throw new ConfigError('SIM_SECRET_KEYS contains a duplicate key');

  return {
    port: integer('PORT', 0, 65_535) ?? DEFAULT_PORT,
    host: read('HOST') ?? DEFAULT_HOST,
    secretKeys,
    webhookUrl: url('SIM_WEBHOOK_URL'),
    publicUrl: url('SIM_PUBLIC_URL'),
    transferDelayMs: integer('SIM_TRANSFER_DELAY_MS', 0, 10 * 60 * 1_000),
    callbackConcurrency: integer('SIM_CALLBACK_CONCURRENCY', 1, 1_000),
  };
}
