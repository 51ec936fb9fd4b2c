import { availableParallelism } from 'node:os';
import type { EncryptionKey } from '../crypto/encryption';
import { CURRENCIES, type Currency } from '../money';
import { configSchema, type RawConfig } from './config.schema';

/** The typed, validated configuration every process receives. */
export interface AppConfig {
  env: 'development' | 'test' | 'production';
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug';
  api: { host: string; port: number; publicBaseUrl: string; trustedProxies: string[] };
  database: { url?: string; poolSize: number; poolTimeoutMs: number; idleInTransactionTimeoutMs: number; statementTimeoutMs: number; embeddedDir: string; embeddedPort: number };
  redisUrl?: string;
  rateLimits: { livePerSecond: number; testPerSecond: number; ipPerSecond: number; portalAuthPerMinute: number; redisPrefix: string };
  idempotency: { retentionHours: number; lockTimeoutSeconds: number };
  requestLog: { retentionDays: number; flushIntervalMs: number; batchSize: number; maxBuffered: number };
  /** `testClockScanIntervalMs`: how often the rules of tenants with an advanced test clock run. */
  scheduler: { host: string; port: number; testClockScanIntervalMs: number };
  /** Ports of the development servers `npm start` runs beside the gateway. */
  devServers: { providerSimPort: number; portalPort: number };
  /** Delivery policy of merchant webhooks (delays in ms between attempts, per-attempt timeout). */
  webhooks: {
    retryScheduleMs: number[];
    timeoutMs: number;
    trustedHosts: string[];
    secretRotationGraceHours: number;
    allowPrivateTargetsInTestMode: boolean;
    /** Auto-disabling: a run of this many failed deliveries (0: never disable) lasting at least `disableAfterMs`. */
    disableAfterFailures: number;
    disableAfterMs: number;
    disableScanIntervalMs: number;
    /** How far back a replay's `since` may reach. */
    replayWindowDays: number;
  };
  /** Keys for values stored encrypted; the first encrypts. Empty (never in production) = ephemeral key. */
  encryptionKeys: EncryptionKey[];
  mail: { smtpUrl?: string; from: string };
  portal: {
    baseUrl: string;
    sessionIdleMinutes: number;
    sessionAbsoluteHours: number;
    loginMaxFailures: number;
    loginLockoutMinutes: number;
    totpLockoutMinutes: number;
    /**
     * argon2 hashes running at once, and how many more may wait before sign-in is refused (503);
     * the cost of each new hash (argon2id's memory in KiB, passes and lanes).
     */
    passwordHashing: { concurrency: number; maxWaiting: number; memoryKiB: number; iterations: number; parallelism: number };
  };
  /** Withdrawals above these amounts need a TOTP code; a currency not listed always does. */
  largeWithdrawalThresholds: Partial<Record<Currency, string>>;
  settlements: {
    /** Above these amounts two different people approve (decimal text); a currency not listed: one approver. */
    twoPersonThresholds: Partial<Record<Currency, string>>;
    /** When the auto-settlement run happens (UTC), and the weekday of weekly ones (0 = Sunday). */
    autoTime: { hour: number; minute: number };
    autoWeekday: number;
    /** What an auto-settlement leaves in the available balance, by currency (0 when not listed). */
    autoMinimumBalance: Partial<Record<Currency, string>>;
    /** Auto-settlements up to these amounts go straight to the provider; larger ones wait for approval. */
    autoApproveLimits: Partial<Record<Currency, string>>;
  };
  payments: {
    /** Platform fee per successful payment, by currency (decimal text); a currency not listed pays 0. */
    platformFees: Partial<Record<Currency, string>>;
    /** Smallest amount per payment by currency, and the largest whatever the currency (decimal text). */
    minimumAmounts: Partial<Record<Currency, string>>;
    maximumAmount: string;
    abandonAfterHours: number;
    /** How often due scheduled payments are charged (SCHEDULED_CHARGES_INTERVAL_SECONDS). */
    scheduledChargesIntervalMs: number;
    /** The reconciliation scan of unconfirmed payments (PAYMENT_RECONCILE_*). */
    reconcile: { intervalMs: number; afterMs: number; maxAgeHours: number; batchSize: number };
    bulkMaxItems: number;
    bulkClaimTimeoutSeconds: number;
  };
  /** The scan of refunds the provider never accepted or never confirmed (REFUND_RESUBMIT_*). */
  refunds: { resubmitIntervalMs: number; resubmitAfterMs: number };
  /** How often pending transfers are verified at the provider (TRANSFER_RECONCILE_INTERVAL_SECONDS). */
  transfers: { reconcileIntervalMs: number };
  /** Subscription dunning: days after a period's first failed charge when it is retried (then cancelled). */
  subscriptions: { retryDays: number[] };
  /** Exports (docs/exports.md): where files live, how long, and when the requester is e-mailed. */
  exports: ExportsConfig;
  /** The upstream payment provider (Paystack wire format): one account per mode. */
  provider: {
    test: ProviderAccountConfig;
    live: ProviderAccountConfig;
    /** Per call; a slower answer is a 504 gateway_timeout. */
    timeoutMs: number;
    /** The circuit breaker's cool-down before it tries a failing provider again. */
    breakerResetMs: number;
    /** Sockets open to one provider origin at once, at most. */
    maxSockets: number;
  };
}

/** Where export files are stored: a local directory, or an S3-compatible bucket (secret never logged). */
export type ExportStorageConfig =
  | { kind: 'local'; directory: string }
  | { kind: 's3'; bucket: string; endpoint?: string; region: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };

export interface ExportsConfig {
  storage: ExportStorageConfig;
  retentionDays: number;
  emailThresholdRows: number;
  expiryScanIntervalMs: number;
  maxRangeDays: number;
}

/**
 * Where one mode's provider account is reached, its secret key (never logged), and what it
 * offers: the provider's documented limits (`profile`) and the currencies enabled on the account.
 */
export interface ProviderAccountConfig {
  baseUrl: string;
  secretKey: string;
  profile: ProviderProfile;
  /** Upper-case ISO codes, e.g. `['NGN']`. */
  currencies: string[];
}

/** `paystack`: Paystack's documented capabilities; `simulator`: everything, so every flow stays testable. */
export type ProviderProfile = 'paystack' | 'simulator';

/**
 * The currencies Paystack serves (an account serves those its business enabled): PaystackOSS/openapi
 * `components/schemas/Currency`. Never GBP.
 */
export const PAYSTACK_CURRENCIES: readonly string[] = ['NGN', 'GHS', 'ZAR', 'KES', 'USD'];

/** The provider simulator's well-known development secrets: refused in production. */
export const SIMULATOR_DEVELOPMENT_SECRETS: readonly string[] = ['sk_sim_test_secret', 'sk_sim_live_secret'];


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
  // Secrets sealed with a throw-away key would be lost at the next restart: never in production.
  if (c.NODE_ENV === 'production' && !c.ENCRYPTION_KEYS.length) {
    throw new ConfigError('ENCRYPTION_KEYS', 'is missing (required when NODE_ENV=production)');
  }
  for (const setting of ['PROVIDER_TEST_SECRET_KEY', 'PROVIDER_LIVE_SECRET_KEY'] as const) {
    if (c.NODE_ENV === 'production' && SIMULATOR_DEVELOPMENT_SECRETS.includes(c[setting])) {
      throw new ConfigError(setting, "is missing or the simulator's development secret (required when NODE_ENV=production)");
    }
  }
  // Provider webhooks tell their mode by which secret signed them: the two must differ.
  if (c.PROVIDER_TEST_SECRET_KEY === c.PROVIDER_LIVE_SECRET_KEY) {
    throw new ConfigError('PROVIDER_LIVE_SECRET_KEY', 'must differ from PROVIDER_TEST_SECRET_KEY');
  }
  // A request waiting on the provider must not look abandoned to a retry, which would take its
  // idempotency key over and run it a second time alongside.
  if (c.IDEMPOTENCY_LOCK_TIMEOUT_SECONDS * 1000 <= c.PROVIDER_TIMEOUT_MS) {
    throw new ConfigError('IDEMPOTENCY_LOCK_TIMEOUT_SECONDS', `is invalid (must be longer than PROVIDER_TIMEOUT_MS, ${c.PROVIDER_TIMEOUT_MS} ms)`);
  }
  // A refund whose request is still waiting on the provider must not be sent a second time.
  if (c.REFUND_RESUBMIT_AFTER_SECONDS * 1000 <= c.PROVIDER_TIMEOUT_MS) {
    throw new ConfigError('REFUND_RESUBMIT_AFTER_SECONDS', `is invalid (must be longer than PROVIDER_TIMEOUT_MS, ${c.PROVIDER_TIMEOUT_MS} ms)`);
  }
  // OWASP's cheapest argon2id profiles trade memory for passes at a constant product (7 MiB × 5
  // passes … 46 MiB × 1): less than the weakest of them makes guessing a stolen hash cheaper.
  if (c.PORTAL_PASSWORD_HASH_MEMORY_KIB * c.PORTAL_PASSWORD_HASH_ITERATIONS < MINIMUM_HASH_WORK_KIB) {
    throw new ConfigError(
      'PORTAL_PASSWORD_HASH_ITERATIONS',
      `is invalid (memory × passes must be at least ${MINIMUM_HASH_WORK_KIB} KiB, e.g. 19456 KiB × 2 or 7168 KiB × 5)`,
    );
  }
  return {
    env: c.NODE_ENV,
    logLevel: c.LOG_LEVEL,
    api: { host: c.API_HOST, port: c.API_PORT, publicBaseUrl: c.PUBLIC_BASE_URL.replace(/\/+$/, ''), trustedProxies: c.TRUSTED_PROXIES },
    database: {
      url: c.DATABASE_URL,
      poolSize: c.DATABASE_POOL_SIZE,
      poolTimeoutMs: c.DATABASE_POOL_TIMEOUT_MS,
      idleInTransactionTimeoutMs: c.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      statementTimeoutMs: c.DATABASE_STATEMENT_TIMEOUT_MS,
      embeddedDir: c.EMBEDDED_PG_DIR,
      embeddedPort: c.EMBEDDED_PG_PORT,
    },
    redisUrl: c.REDIS_URL,
    rateLimits: {
      livePerSecond: c.RATE_LIMIT_LIVE_PER_SECOND,
      testPerSecond: c.RATE_LIMIT_TEST_PER_SECOND,
      ipPerSecond: c.RATE_LIMIT_IP_PER_SECOND,
      portalAuthPerMinute: c.RATE_LIMIT_PORTAL_AUTH_PER_MINUTE,
      redisPrefix: c.RATE_LIMIT_REDIS_PREFIX,
    },
    idempotency: { retentionHours: c.IDEMPOTENCY_RETENTION_HOURS, lockTimeoutSeconds: c.IDEMPOTENCY_LOCK_TIMEOUT_SECONDS },
    requestLog: {
      retentionDays: c.REQUEST_LOG_RETENTION_DAYS,
      flushIntervalMs: c.REQUEST_LOG_FLUSH_INTERVAL_MS,
      batchSize: c.REQUEST_LOG_BATCH_SIZE,
      maxBuffered: c.REQUEST_LOG_MAX_BUFFERED,
    },
    scheduler: { host: c.SCHEDULER_HOST, port: c.SCHEDULER_PORT, testClockScanIntervalMs: c.TEST_CLOCK_SCAN_INTERVAL_SECONDS * 1_000 },
    devServers: { providerSimPort: c.PROVIDER_SIM_PORT, portalPort: c.PORTAL_PORT },
    webhooks: {
      retryScheduleMs: c.WEBHOOK_RETRY_SCHEDULE_SECONDS,
      timeoutMs: c.WEBHOOK_TIMEOUT_MS,
      trustedHosts: c.WEBHOOK_TRUSTED_HOSTS,
      secretRotationGraceHours: c.WEBHOOK_SECRET_ROTATION_GRACE_HOURS,
      allowPrivateTargetsInTestMode: c.WEBHOOK_ALLOW_PRIVATE_TARGETS_IN_TEST_MODE ?? c.NODE_ENV !== 'production',
      disableAfterFailures: c.WEBHOOK_DISABLE_AFTER_FAILURES,
      disableAfterMs: Math.round(c.WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000),
      disableScanIntervalMs: c.WEBHOOK_DISABLE_SCAN_INTERVAL_SECONDS * 1_000,
      replayWindowDays: c.WEBHOOK_REPLAY_WINDOW_DAYS,
    },
    encryptionKeys: c.ENCRYPTION_KEYS,
    mail: { smtpUrl: c.SMTP_URL, from: c.MAIL_FROM },
    portal: {
      baseUrl: c.PORTAL_BASE_URL.replace(/\/+$/, ''),
      sessionIdleMinutes: c.PORTAL_SESSION_IDLE_MINUTES,
      sessionAbsoluteHours: c.PORTAL_SESSION_ABSOLUTE_HOURS,
      loginMaxFailures: c.PORTAL_LOGIN_MAX_FAILURES,
      loginLockoutMinutes: c.PORTAL_LOGIN_LOCKOUT_MINUTES,
      totpLockoutMinutes: c.TOTP_LOCKOUT_MINUTES,
      passwordHashing: passwordHashing(c),
    },
    largeWithdrawalThresholds: c.LARGE_WITHDRAWAL_THRESHOLD,
    settlements: {
      twoPersonThresholds: c.SETTLEMENT_TWO_PERSON_THRESHOLD,
      autoTime: c.AUTO_SETTLEMENT_TIME,
      autoWeekday: WEEKDAYS.indexOf(c.AUTO_SETTLEMENT_WEEKDAY),
      autoMinimumBalance: c.AUTO_SETTLEMENT_MINIMUM_BALANCE,
      autoApproveLimits: c.AUTO_SETTLEMENT_AUTO_APPROVE_LIMIT,
    },
    payments: {
      platformFees: c.PLATFORM_FEES,
      minimumAmounts: c.PAYMENT_MIN_AMOUNTS,
      maximumAmount: c.PAYMENT_MAX_AMOUNT,
      abandonAfterHours: c.PAYMENT_ABANDON_AFTER_HOURS,
      scheduledChargesIntervalMs: c.SCHEDULED_CHARGES_INTERVAL_SECONDS * 1_000,
      reconcile: {
        intervalMs: c.PAYMENT_RECONCILE_INTERVAL_SECONDS * 1_000,
        afterMs: c.PAYMENT_RECONCILE_AFTER_SECONDS * 1_000,
        maxAgeHours: c.PAYMENT_RECONCILE_MAX_AGE_HOURS,
        batchSize: c.PAYMENT_RECONCILE_BATCH_SIZE,
      },
      bulkMaxItems: c.PAYMENT_BULK_MAX_ITEMS,
      bulkClaimTimeoutSeconds: c.PAYMENT_BULK_CLAIM_TIMEOUT_SECONDS,
    },
    refunds: { resubmitIntervalMs: c.REFUND_RESUBMIT_INTERVAL_SECONDS * 1_000, resubmitAfterMs: c.REFUND_RESUBMIT_AFTER_SECONDS * 1_000 },
    transfers: { reconcileIntervalMs: c.TRANSFER_RECONCILE_INTERVAL_SECONDS * 1_000 },
    subscriptions: { retryDays: c.SUBSCRIPTION_RETRY_DAYS },
    exports: {
      storage: exportStorage(c),
      retentionDays: c.EXPORT_RETENTION_DAYS,
      emailThresholdRows: c.EXPORT_EMAIL_THRESHOLD_ROWS,
      expiryScanIntervalMs: c.EXPORT_EXPIRY_SCAN_INTERVAL_SECONDS * 1_000,
      maxRangeDays: c.EXPORT_MAX_RANGE_DAYS,
    },
    provider: {
      test: providerAccount('TEST', c.PROVIDER_TEST_BASE_URL, c.PROVIDER_TEST_SECRET_KEY, c.PROVIDER_TEST_PROFILE, c.PROVIDER_TEST_CURRENCIES),
      live: providerAccount('LIVE', c.PROVIDER_LIVE_BASE_URL, c.PROVIDER_LIVE_SECRET_KEY, c.PROVIDER_LIVE_PROFILE, c.PROVIDER_LIVE_CURRENCIES),
      timeoutMs: c.PROVIDER_TIMEOUT_MS,
      breakerResetMs: c.PROVIDER_BREAKER_RESET_MS,
      maxSockets: c.PROVIDER_MAX_SOCKETS,
    },
  };
}

/**
 * One mode's provider account. Its profile defaults to `paystack` when the base URL is Paystack's
 * own host, so pointing a mode at Paystack never silently advertises the simulator's everything;
 * its currencies default to what a new account serves (Paystack: NGN; the simulator: all the
 * gateway's), and must be ones the profile's provider serves.
 */
function providerAccount(
  mode: 'TEST' | 'LIVE',
  baseUrl: string,
  secretKey: string,
  profile: ProviderProfile | undefined,
  currencies: string[] | undefined,
): ProviderAccountConfig {
  const url = baseUrl.replace(/\/+$/, '');
  const resolved: ProviderProfile = profile ?? (new URL(url).hostname === 'api.paystack.co' ? 'paystack' : 'simulator');
  const served: readonly string[] = resolved === 'paystack' ? PAYSTACK_CURRENCIES : CURRENCIES;
  const enabled = currencies ?? (resolved === 'paystack' ? ['NGN'] : [...CURRENCIES]);
  const unserved = enabled.filter((currency) => !served.includes(currency));
  if (unserved.length > 0) {
    throw new ConfigError(
      `PROVIDER_${mode}_CURRENCIES`,
      `is invalid (${unserved.join(', ')} not served by the ${resolved} profile, which serves ${served.join(', ')})`,
    );
  }
  return { baseUrl: url, secretKey, profile: resolved, currencies: [...new Set(enabled)] };
}

/** EXPORT_STORAGE=s3 needs a bucket, and an access key comes as a pair (else the SDK's default chain: environment, instance role…). */
function exportStorage(c: RawConfig): ExportStorageConfig {
  if (c.EXPORT_STORAGE === 'local') return { kind: 'local', directory: c.EXPORTS_DIR };
  if (!c.EXPORT_S3_BUCKET) throw new ConfigError('EXPORT_S3_BUCKET', 'is missing (required when EXPORT_STORAGE=s3)');
  if ((c.EXPORT_S3_ACCESS_KEY_ID === undefined) !== (c.EXPORT_S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError(c.EXPORT_S3_ACCESS_KEY_ID ? 'EXPORT_S3_SECRET_ACCESS_KEY' : 'EXPORT_S3_ACCESS_KEY_ID', 'is missing (the access key id and secret are set together)');
  }
  return {
    kind: 's3',
    bucket: c.EXPORT_S3_BUCKET,
    endpoint: c.EXPORT_S3_ENDPOINT,
    region: c.EXPORT_S3_REGION,
    accessKeyId: c.EXPORT_S3_ACCESS_KEY_ID,
    secretAccessKey: c.EXPORT_S3_SECRET_ACCESS_KEY,
    forcePathStyle: c.EXPORT_S3_FORCE_PATH_STYLE ?? c.EXPORT_S3_ENDPOINT !== undefined,
  };
}

/** OWASP's floor for argon2id's memory (KiB) times its passes: 7 MiB × 5, its cheapest profile. */
const MINIMUM_HASH_WORK_KIB = 7_168 * 5;

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/**
 * argon2 runs on libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise), which
 * also serves file and DNS work: by default one hash per core, leaving at least one thread free.
 */
function passwordHashing(c: RawConfig): AppConfig['portal']['passwordHashing'] {
  const running = c.PORTAL_PASSWORD_HASH_CONCURRENCY ?? Math.max(1, Math.min(availableParallelism(), 3));
  return {
    concurrency: running,
    maxWaiting: c.PORTAL_PASSWORD_HASH_QUEUE ?? 2 * running,
    memoryKiB: c.PORTAL_PASSWORD_HASH_MEMORY_KIB,
    iterations: c.PORTAL_PASSWORD_HASH_ITERATIONS,
    parallelism: c.PORTAL_PASSWORD_HASH_PARALLELISM,
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
