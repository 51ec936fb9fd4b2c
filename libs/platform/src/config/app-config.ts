import { configSchema } from './config.schema';

/** The typed, validated configuration every process receives. */
export interface AppConfig {
  env: 'development' | 'test' | 'production';
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug';
  api: { host: string; port: number; publicBaseUrl: string };
  database: { url?: string; poolSize: number; embeddedDir: string; embeddedPort: number };
  redisUrl?: string;
  scheduler: { host: string; port: number };
}

export class ConfigError extends Error {
  constructor(readonly setting: string, detail: string) {
    super(`Configuration error: ${setting} ${detail}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws ConfigError naming the first bad setting. */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const setting = String(issue.path[0] ?? 'configuration');
    const given = env[setting];
    const shown = given === undefined ? 'is missing' : `is invalid (${issue.message})`;
    throw new ConfigError(setting, shown);
  }
  const c = parsed.data;
  return {
    env: c.NODE_ENV,
    logLevel: c.LOG_LEVEL,
    api: { host: c.API_HOST, port: c.API_PORT, publicBaseUrl: c.PUBLIC_BASE_URL.replace(/\/+$/, '') },
    database: {
      url: c.DATABASE_URL,
      poolSize: c.DATABASE_POOL_SIZE,
      embeddedDir: c.EMBEDDED_PG_DIR,
      embeddedPort: c.EMBEDDED_PG_PORT,
    },
    redisUrl: c.REDIS_URL,
    scheduler: { host: c.SCHEDULER_HOST, port: c.SCHEDULER_PORT },
  };
}

/**
 * For process entry points: a wrong or missing setting stops the process with one clear line.
 * A `.env` file in the working directory is read first, if present (real environment wins).
 */
export function loadConfigOrExit(): AppConfig {
  try {
    try {
      process.loadEnvFile('.env');
    } catch {
      // No .env file: the environment alone configures the process.
    }
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}
