/** What the sandbox CLI needs from its environment, read and checked once at start. */
export interface SandboxSettings {
  /** The gateway's base URL, without a trailing slash. */
  apiUrl: string;
  /** A test secret key (`sk_test_…`). */
  secretKey: string;
}

/** `npm start` serves the API here (API_PORT's default). */
export const DEFAULT_API_URL = 'http://127.0.0.1:3000';

export class SettingsError extends Error {}

/**
 * GATEWAY_SECRET_KEY (required, a test secret key) and GATEWAY_API_URL (optional). Live keys are
 * refused: every command creates test activity or forwards test events, and none of that may
 * ever run against live money.
 * @throws SettingsError naming what is wrong and how to fix it
 */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): SandboxSettings {
  const secretKey = env.GATEWAY_SECRET_KEY?.trim() ?? '';
  if (!secretKey) {
    throw new SettingsError('Set GATEWAY_SECRET_KEY to a test secret key (sk_test_…): the portal issues one, or `npm run cli -- developer create … --with-test-key`.');
  }
  if (secretKey.startsWith('sk_live_') || secretKey.startsWith('pk_live_')) {
    throw new SettingsError('GATEWAY_SECRET_KEY is a live key: the sandbox CLI works in test mode only. Use a test secret key (sk_test_…).');
  }
  if (!secretKey.startsWith('sk_test_')) throw new SettingsError('GATEWAY_SECRET_KEY must be a test secret key (sk_test_…); publishable keys cannot read events or logs.');
  const apiUrl = (env.GATEWAY_API_URL?.trim() || DEFAULT_API_URL).replace(/\/+$/, '');
  let parsed: URL;
  try {
    parsed = new URL(apiUrl);
  } catch {
    throw new SettingsError(`GATEWAY_API_URL is not a URL: ${apiUrl}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new SettingsError(`GATEWAY_API_URL must be http:// or https://, not ${parsed.protocol}`);
  return { apiUrl, secretKey };
}
