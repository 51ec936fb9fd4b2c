import { z } from 'zod';
import { parseEncryptionKeys } from '../crypto/encryption';

const port = z.coerce.number().int().min(1).max(65535);

/** DATABASE_POOL_TIMEOUT_MS when unset; also what a pool made without the configuration gets (dataSourceOptions). */
export const DEFAULT_DATABASE_POOL_TIMEOUT_MS = 10_000;
/** DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS when unset, and what a pool made without the configuration gets. */
export const DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;
/** DATABASE_STATEMENT_TIMEOUT_MS when unset (the API's pool only). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 60_000;
const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(`${p}://`)), {
      message: `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });
const httpUrl = z.string().trim().url().refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL');
/** `NGN:10,USD:0.5`: an amount (up to 2 decimals) per currency. */
const amountsByCurrency = (defaults: string) =>
  z
    .string()
    .trim()
    .default(defaults)
    .refine((v) => v === '' || v.split(',').every((e) => /^(NGN|USD|GBP|KES):\d{1,12}(\.\d{1,2})?$/.test(e.trim())), 'must be CURRENCY:amount pairs, e.g. NGN:10,USD:0.50')
    .transform((v) => Object.fromEntries(v === '' ? [] : v.split(',').map((e) => e.trim().split(':'))) as Partial<Record<'NGN' | 'USD' | 'GBP' | 'KES', string>>);

const providerProfile = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.enum(['paystack', 'simulator']).optional());
/** `NGN,USD`: ISO currency codes; empty counts as unset. */
const currencyList = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean)))
  .refine((list) => list === undefined || (list.length > 0 && list.every((c) => /^[A-Z]{3}$/.test(c))), 'must be currency codes, e.g. NGN,USD');

/**
 * Every setting the gateway reads, validated once at boot. Nothing else reads process.env.
 * Names are the environment variable names; `.env.example` documents each one.
 */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug']).default('info'),

  API_HOST: z.string().trim().min(1).default('127.0.0.1'),
  API_PORT: port.default(3000),
  PUBLIC_BASE_URL: httpUrl.default('http://localhost:3000'),
  // Proxies whose X-Forwarded-For is believed (IPs or CIDRs, comma-separated). Empty: the socket's address.
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .refine((list) => list.every((e) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(e)), 'must be IP addresses or CIDR ranges'),

  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  // How long a query waits for a free pool connection (or a new one to open) before it fails, so a
  // request answers 503 instead of waiting without end for a pool that never frees up.
  DATABASE_POOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_DATABASE_POOL_TIMEOUT_MS),
  // How long a transaction may sit idle (begun, no statement running) before PostgreSQL ends its
  // session, rolling it back and freeing its locks; 0 leaves it to the server's own setting.
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .refine((ms) => ms === 0 || (ms >= 1_000 && ms <= 86_400_000), 'must be 0 (the server decides) or from 1000 to 86400000')
    .default(DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS),
  // How long one statement of the API may run (a lock wait included) before PostgreSQL cancels it,
  // so a runaway query or a wait behind a stuck lock frees its connection and answers 503; 0 leaves
  // it to the server's own setting. The scheduler and migrations are not bounded by it.
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .refine((ms) => ms === 0 || (ms >= 100 && ms <= 3_600_000), 'must be 0 (the server decides) or from 100 to 3600000')
    .default(DEFAULT_STATEMENT_TIMEOUT_MS),
  EMBEDDED_PG_DIR: z.string().trim().min(1).default('.data/postgres'),
  EMBEDDED_PG_PORT: port.default(54329),

  REDIS_URL: optionalUrl(['redis', 'rediss']),
  // Requests per 1-second window, per secret key (by the key's mode) and per client IP at once.
  RATE_LIMIT_LIVE_PER_SECOND: z.coerce.number().int().min(1).max(1_000_000).default(100),
  RATE_LIMIT_TEST_PER_SECOND: z.coerce.number().int().min(1).max(1_000_000).default(25),
  RATE_LIMIT_IP_PER_SECOND: z.coerce.number().int().min(1).max(1_000_000).default(200),
  // Requests per minute per client IP to the portal routes that check a password, code or link
  // token (sign-in, its TOTP step, password reset, accepting an invitation): slows guessing.
  RATE_LIMIT_PORTAL_AUTH_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(10),
  // Namespace of the counters in Redis: instances that share limits must use the same prefix.
  RATE_LIMIT_REDIS_PREFIX: z.string().trim().min(1).default('gateway:rate-limit:'),

  // Idempotency keys are remembered at least 24 hours (the contract's minimum), then purged.
  IDEMPOTENCY_RETENTION_HOURS: z.coerce.number().int().min(24).max(8760).default(24),
  // An in-progress claim older than this is treated as abandoned (crashed request) and may be taken over.
  IDEMPOTENCY_LOCK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),

  // Request log: entries kept this many days (the spec's 90 by default), then purged by the scheduler.
  REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  // The API writes its request log in batches: at least this often, or as soon as a batch is full.
  REQUEST_LOG_FLUSH_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  REQUEST_LOG_BATCH_SIZE: z.coerce.number().int().min(1).max(2000).default(500),
  // Entries held in memory while the database refuses them; beyond it the oldest are dropped (with a warning).
  REQUEST_LOG_MAX_BUFFERED: z.coerce.number().int().min(100).max(1_000_000).default(20_000),

  // Values stored encrypted (TOTP secrets…): `<key id>:<base64 32 bytes>`, comma-separated, the
  // first encrypts, the others still decrypt (rotation). Required in production.
  ENCRYPTION_KEYS: z
    .string()
    .trim()
    .default('')
    .transform((v, ctx) => {
      if (v === '') return [];
      const keys = parseEncryptionKeys(v);
      if (typeof keys !== 'string') return keys;
      ctx.addIssue({ code: 'custom', message: keys });
      return z.NEVER;
    }),

  // Portal people: mail (SMTP when set, else the dev mailbox table), sessions, lockouts, TOTP.
  SMTP_URL: optionalUrl(['smtp', 'smtps']),
  MAIL_FROM: z.string().trim().min(3).default('Payment Gateway <no-reply@localhost>'),
  PORTAL_BASE_URL: httpUrl.default('http://localhost:4200'),
  PORTAL_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  PORTAL_SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  PORTAL_LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  PORTAL_LOGIN_LOCKOUT_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  TOTP_LOCKOUT_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  // argon2id hashes (64 MiB each) run at most this many at once (default: the CPU cores, at most
  // 3 so libuv's 4 threads keep one for files and DNS); at most PORTAL_PASSWORD_HASH_QUEUE more
  // wait (default: twice the concurrency), and beyond that sign-in answers 503 at once.
  PORTAL_PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  PORTAL_PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).max(10_000).optional(),
  // The cost of each argon2id hash (docs/portal-api.md). The defaults are RFC 9106's second
  // recommendation (64 MiB, 3 passes, 4 lanes); OWASP's cheaper equivalents (e.g. 19 MiB with 2
  // passes, 7 MiB with 5, one lane) suit small machines. Below OWASP's floor is refused (loadConfig).
  PORTAL_PASSWORD_HASH_MEMORY_KIB: z.coerce.number().int().min(7_168).max(1_048_576).default(65_536),
  PORTAL_PASSWORD_HASH_ITERATIONS: z.coerce.number().int().min(1).max(64).default(3),
  PORTAL_PASSWORD_HASH_PARALLELISM: z.coerce.number().int().min(1).max(16).default(4),
  // Settlements (withdrawals to the account's bank) above these amounts need two different
  // approvers; auto-settlement runs at AUTO_SETTLEMENT_TIME (UTC), weekly ones on its weekday,
  // keeps the minimum balance in the wallet, and approves itself up to the auto-approve limit.
  SETTLEMENT_TWO_PERSON_THRESHOLD: amountsByCurrency('NGN:5000000'),
  AUTO_SETTLEMENT_TIME: z
    .string()
    .trim()
    .default('06:00')
    .refine((v) => /^([01]\d|2[0-3]):[0-5]\d$/.test(v), 'must be a UTC time of day, HH:MM')
    .transform((v) => ({ hour: Number(v.slice(0, 2)), minute: Number(v.slice(3)) })),
  AUTO_SETTLEMENT_WEEKDAY: z.enum(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']).default('monday'),
  AUTO_SETTLEMENT_MINIMUM_BALANCE: amountsByCurrency(''),
  AUTO_SETTLEMENT_AUTO_APPROVE_LIMIT: amountsByCurrency(''),
  // Withdrawals above this need a TOTP code: `1000000` (NGN) or `NGN:1000000,USD:5000`.
  LARGE_WITHDRAWAL_THRESHOLD: z
    .string()
    .trim()
    .default('1000000')
    .refine(
      (v) => v.split(',').every((e) => /^(?:(?:NGN|USD|GBP|KES):)?\d{1,15}(?:\.\d{1,2})?$/.test(e.trim())),
      'must be an amount (NGN) or CURRENCY:amount pairs, e.g. NGN:1000000,USD:5000',
    )
    .transform((v) =>
      Object.fromEntries(
        v.split(',').map((e) => {
          const [first, second] = e.trim().split(':');
          return second === undefined ? ['NGN', first] : [first, second];
        }),
      ) as Partial<Record<'NGN' | 'USD' | 'GBP' | 'KES', string>>,
    ),

  // Upstream payment provider (Paystack wire format), one base URL and secret per mode. The defaults
  // are the provider simulator (`apps/provider-sim`, started by `npm start`) and its well-known
  // development secrets; production refuses those (see loadConfig). Real Paystack: https://api.paystack.co
  PROVIDER_TEST_BASE_URL: httpUrl.default('http://127.0.0.1:4010'),
  PROVIDER_TEST_SECRET_KEY: z.string().trim().min(1).default('sk_sim_test_secret'),
  PROVIDER_LIVE_BASE_URL: httpUrl.default('http://127.0.0.1:4010'),
  PROVIDER_LIVE_SECRET_KEY: z.string().trim().min(1).default('sk_sim_live_secret'),
  // What each mode's provider account offers (docs/provider-adapter.md#capabilities): `paystack`
  // (Paystack's documented limits) or `simulator` (everything). Unset: `paystack` when the mode's
  // base URL is api.paystack.co, else `simulator`. Checked against the currencies in loadConfig.
  PROVIDER_TEST_PROFILE: providerProfile,
  PROVIDER_LIVE_PROFILE: providerProfile,
  // Currencies enabled on each mode's provider account, comma-separated (a Paystack account serves
  // those its business enabled). Unset: NGN with `paystack`, every gateway currency with `simulator`.
  PROVIDER_TEST_CURRENCIES: currencyList,
  PROVIDER_LIVE_CURRENCIES: currencyList,
  // Per provider call; past it the API answers 504 gateway_timeout (safe to retry with the same key).
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(20_000),
  // Cool-down of the provider circuit breaker: once the provider keeps failing, calls to it are
  // answered at once with 502 provider_error for this long, then one probe call tries it again.
  PROVIDER_BREAKER_RESET_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  // Sockets each process keeps open to one provider origin at most; calls beyond it wait for one
  // (within PROVIDER_TIMEOUT_MS), so a slow or hanging provider cannot make the API open sockets without bound.
  PROVIDER_MAX_SOCKETS: z.coerce.number().int().min(1).max(1_000).default(50),

  // Payments. The platform fee per successful payment by currency (a currency not listed: 0);
  // an administrator's per-developer override wins. Amount limits per payment.
  PLATFORM_FEES: amountsByCurrency('NGN:10'),
  PAYMENT_MIN_AMOUNTS: amountsByCurrency('NGN:100,KES:10,USD:1,GBP:1'),
  PAYMENT_MAX_AMOUNT: z.string().trim().regex(/^\d{1,15}(\.\d{1,2})?$/, 'must be an amount such as 100000000').default('100000000'),
  // A payment not paid within this many hours is marked abandoned by the scheduler.
  PAYMENT_ABANDON_AFTER_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  // How often the scheduler charges the scheduled payments whose charge_at has come.
  SCHEDULED_CHARGES_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
  // Reconciliation: the scheduler asks the provider about pending (and abandoned) payments whose
  // confirmation never reached us — no callback, no verify — every PAYMENT_RECONCILE_INTERVAL_SECONDS,
  // first once they are PAYMENT_RECONCILE_AFTER_SECONDS old, then at doubling intervals, until they
  // are PAYMENT_RECONCILE_MAX_AGE_HOURS old; at most PAYMENT_RECONCILE_BATCH_SIZE per run.
  PAYMENT_RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  PAYMENT_RECONCILE_AFTER_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  PAYMENT_RECONCILE_MAX_AGE_HOURS: z.coerce.number().int().min(1).max(2_160).default(72),
  PAYMENT_RECONCILE_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(100),
  // Refunds the provider never accepted (or whose callback never came) and nobody touched for
  // REFUND_RESUBMIT_AFTER_SECONDS are looked for at the provider and sent again, every
  // REFUND_RESUBMIT_INTERVAL_SECONDS. The wait must exceed PROVIDER_TIMEOUT_MS: Paystack's refund
  // takes no idempotency key, so a request still waiting for its answer must not be raced.
  REFUND_RESUBMIT_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  REFUND_RESUBMIT_AFTER_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
  // How often the scheduler verifies transfers still pending two minutes after they were last touched.
  TRANSFER_RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
  // Bulk payments: most items per batch, and after how long an item a worker claimed but did not
  // finish (a crash) is taken over by another.
  PAYMENT_BULK_MAX_ITEMS: z.coerce.number().int().min(1).max(10_000).default(1000),
  PAYMENT_BULK_CLAIM_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),

  // Webhooks: delays between delivery attempts (seconds, decimals allowed so tests can compress
  // the schedule), the per-attempt timeout, hosts trusted past the private-address check, and how
  // long a rotated-out signing secret keeps signing alongside the new one.
  WEBHOOK_RETRY_SCHEDULE_SECONDS: z
    .string()
    .trim()
    .default('60,180,420,900,1500')
    .refine((v) => v.split(',').every((e) => /^\d{1,6}(\.\d{1,3})?$/.test(e.trim())), 'must be comma-separated seconds, e.g. 60,180,420,900,1500')
    .transform((v) => v.split(',').map((e) => Math.round(Number(e.trim()) * 1000))),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_TRUSTED_HOSTS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)),
  WEBHOOK_SECRET_ROTATION_GRACE_HOURS: z.coerce.number().min(0).max(720).default(24),
  // Whether test-mode endpoints may target loopback and private networks (127.0.0.1, 10.x, …, a
  // developer's own machine). Unset: on when NODE_ENV is development or test, off in production,
  // so no tenant's test key reaches the gateway's own host. Live mode never may.
  WEBHOOK_ALLOW_PRIVATE_TARGETS_IN_TEST_MODE: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(z.stringbool().optional()),
  // Endpoint healing (docs/webhooks.md, "Endpoint health"): an endpoint is disabled once this many
  // of its deliveries in a row ended failed AND the run has lasted this many days (decimals allowed
  // so tests can compress it; 0 days: the count alone). 0 failures turns automatic disabling off.
  // The scheduler looks for such endpoints every WEBHOOK_DISABLE_SCAN_INTERVAL_SECONDS.
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(0).max(1_000_000).default(20),
  WEBHOOK_DISABLE_AFTER_DAYS: z.coerce.number().min(0).max(365).default(3),
  WEBHOOK_DISABLE_SCAN_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  // How far back `POST /webhooks/{id}/replay` may reach (its `since`).
  WEBHOOK_REPLAY_WINDOW_DAYS: z.coerce.number().int().min(1).max(365).default(30),

  // Subscriptions: after a failed charge, retry it this many days after the period's first failed
  // charge (comma-separated, ascending); when the last retry fails too, the subscription is cancelled.
  // Empty: no retries (cancelled at the first failure).
  SUBSCRIPTION_RETRY_DAYS: z
    .string()
    .trim()
    .default('1,3,5')
    .refine((v) => v === '' || v.split(',').every((e) => /^\d{1,3}$/.test(e.trim()) && Number(e) >= 1), 'must be comma-separated whole days ≥ 1, e.g. 1,3,5')
    .transform((v) => (v === '' ? [] : v.split(',').map((e) => Number(e.trim()))))
    .refine((days) => days.every((d, i) => i === 0 || d > days[i - 1]), 'must be in ascending order, e.g. 1,3,5'),

  SCHEDULER_HOST: z.string().trim().min(1).default('127.0.0.1'),
  SCHEDULER_PORT: port.default(3002),
  // How often the scheduler runs the time-driven rules of developers whose test clock runs ahead
  // (docs/test-clocks.md); advancing a clock also runs them at once.
  TEST_CLOCK_SCAN_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),

  // Exports (docs/exports.md): CSV files of a merchant's payments, refunds, ledger… Files are kept
  // EXPORT_RETENTION_DAYS after completion (then deleted by the scheduler; the record stays, expired).
  // Above EXPORT_EMAIL_THRESHOLD_ROWS rows the requester is e-mailed a link when the file is ready.
  EXPORT_STORAGE: z.enum(['local', 's3']).default('local'),
  EXPORTS_DIR: z.string().trim().min(1).default('.data/exports'),
  EXPORT_S3_BUCKET: z.string().trim().optional().transform((v) => (v === '' ? undefined : v)),
  EXPORT_S3_ENDPOINT: optionalUrl(['http', 'https']),
  EXPORT_S3_REGION: z.string().trim().min(1).default('us-east-1'),
  EXPORT_S3_ACCESS_KEY_ID: z.string().trim().optional().transform((v) => (v === '' ? undefined : v)),
  EXPORT_S3_SECRET_ACCESS_KEY: z.string().trim().optional().transform((v) => (v === '' ? undefined : v)),
  // Path-style URLs (http://host/bucket/key), which MinIO and most self-hosted stores need. Unset: on when an endpoint is given.
  EXPORT_S3_FORCE_PATH_STYLE: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(z.stringbool().optional()),
  EXPORT_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  EXPORT_EMAIL_THRESHOLD_ROWS: z.coerce.number().int().min(0).default(100_000),
  EXPORT_EXPIRY_SCAN_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3_600),
  // The longest date range one export may cover.
  EXPORT_MAX_RANGE_DAYS: z.coerce.number().int().min(1).max(3_660).default(366),

  // Where `npm start` runs the provider simulator and the portal's dev server (point
  // PROVIDER_*_BASE_URL at a moved simulator).
  PROVIDER_SIM_PORT: port.default(4010),
  PORTAL_PORT: port.default(4200),
});

export type RawConfig = z.infer<typeof configSchema>;
