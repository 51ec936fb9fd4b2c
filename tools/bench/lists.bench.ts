import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createApiApp } from '@gateway/api';
import { ApiKeysService } from '@gateway/domain/api-keys';
import { DevelopersService } from '@gateway/domain/developers';
import { UsersService } from '@gateway/domain/identity';
import { loadConfig } from '@gateway/platform';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { Client } from 'pg';
import { SERVE_API, startChild, stopChild } from './bench-processes';
import { benchGatewayEnv } from './bench-support';

/**
 * Every filter of the big lists on ONE account of BENCH_ROWS rows per list (default 10,000,000):
 * payments, customers, refunds, wallet ledger entries, request logs (partitioned by week), webhook
 * delivery attempts, transfers, the event feed, disputes, virtual accounts, subscriptions, invoices,
 * settlements, transfer recipients and subscription plans (parents — customers, payments, plans — only as
 * those lists need them), seeded with INSERT … SELECT generate_series (mostly NGN, USD
 * absent, statuses mixed, spread over a year; request logs over 90 days) with each table's indexes
 * built after its rows (loadThenIndex), then VACUUM ANALYZE. Each filter — first page, matching
 * none, few, many, and a page 5,000 rows deep — is timed over HTTP against the
 * real API in a child process: median and p95 of BENCH_RUNS requests, one at a time, marked `SLOW`
 * when the median is above 20 ms. See docs/benchmarks.md ("List filters on a big account").
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_ROWS=1000000 npm run bench:lists
 *
 * BENCH_LISTS=payments,customers… measures only those lists and BENCH_CASES=<text> only the
 * cases whose filter contains it; BENCH_API_NODE_OPTIONS adds flags to the API's node
 * (`--cpu-prof`); BENCH_KEEP_DATABASE=1 keeps the seeded database (its URL is printed) and
 * BENCH_DATABASE_URL measures one kept earlier without seeding.
 */
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const LISTS = process.env.BENCH_LISTS?.split(',') ?? [
  'payments', 'customers', 'refunds', 'ledger', 'request-logs', 'deliveries', 'transfers', 'events',
  'disputes', 'virtual-accounts', 'subscriptions', 'invoices', 'settlements', 'recipients', 'plans',
];
/** Only the cases whose filter contains this text (e.g. `status`), when set. */
const CASES = process.env.BENCH_CASES;
/** More flags for the API's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const API_NODE_OPTIONS = process.env.BENCH_API_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
const CHUNK = 1_000_000;
const PROCESS_WARM_UP_REQUESTS = 50;
const SLOW_MS = 20;
const DEEP_ROWS = 5_000;
const PASSWORD = 'bench lists password 1';
const EMAIL = 'bench-lists-owner@example.com';
/** A year of rows, newest first: row g was created g * SPREAD seconds ago. */
const SPREAD_SECONDS = (365 * 86_400) / ROWS;
const REQUEST_LOG_DAYS = 90;
const ENDPOINT_REFERENCE = 'WHE_bench';
/** What the benchmark's API key may read. */
const SCOPES = [
  'payments:read', 'customers:read', 'refunds:read', 'wallet:read', 'webhooks:read', 'transfers:read', 'events:read',
  'disputes:read', 'virtual_accounts:read', 'subscriptions:read', 'invoices:read',
];
/** Paths read with the live key: transfers and their recipients (live only), settlements (a table of live rows only). */
const LIVE_PATHS = ['/api/v1/transfers', '/api/v1/wallet/settlements'];

interface Account {
  developerId: string;
  key: string;
  /** Transfers and recipients are live mode only (a test key gets 403 `live_mode_required`); settlements too (a test key lists none). */
  liveKey: string;
}

interface Case {
  list: string;
  filter: string;
  path: string;
  /** Follow the cursor this many rows deep first, then time that page. */
  deep?: boolean;
  /** The query parameter that continues a page: `cursor` for lists, `after` for the event feed. */
  continueWith?: 'after';
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server the benchmark may create a database on.');
  const reused = process.env.BENCH_DATABASE_URL;
  const databaseUrl = reused ?? (await createTestDatabase('bench_lists', serverUrl));
  const env = benchGatewayEnv(databaseUrl, 'http://127.0.0.1:9', { test: 'sk_test_bench_lists', live: 'sk_live_bench_lists' });
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const children: ChildProcess[] = [];
  try {
    const account = reused ? await keptAccount(db, env) : await seed(db, env);
    const api = await startChild(children, [], env, SERVE_API, API_NODE_OPTIONS);
    const baseUrl = `http://127.0.0.1:${api.port}`;
    const portalCookie = await portalSignIn(baseUrl);
    const results: Array<Case & { median: number; p95: number; rows: number }> = [];
    const headersFor = (path: string) => {
      if (path.startsWith('/api/portal/')) return portalCookie;
      return { authorization: `Bearer ${LIVE_PATHS.some((live) => path.startsWith(live)) ? account.liveKey : account.key}` };
    };
    const chosen = cases().filter((c) => LISTS.includes(c.list) && (!CASES || c.filter.includes(CASES)));
    // A new process compiles its hot code over its first requests: without this, the first case
    // measured that (10 → 20 ms for the request log's first page), not the list.
    for (let i = 0; i < PROCESS_WARM_UP_REQUESTS && chosen.length > 0; i++) {
      await get(baseUrl, chosen[0].path, headersFor(chosen[0].path));
    }
    for (const item of chosen) {
      const headers = headersFor(item.path);
      const path = item.deep ? await deepPath(baseUrl, item.path, headers, item.continueWith) : item.path;
      const timed = await measure(baseUrl, path, headers);
      results.push({ ...item, ...timed });
      log(`${item.list} ${item.filter}: median ${timed.median.toFixed(1)} ms, p95 ${timed.p95.toFixed(1)} ms (${timed.rows} rows)`);
    }
    await stopChild(api.child);
    console.log('');
    console.log(`${ROWS.toLocaleString()} rows per list in one account; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} (${cpus().length} cores, shared)`);
    console.log('| list | filter | rows on page | median ms | p95 ms | |');
    console.log('|---|---|---:|---:|---:|---|');
    for (const r of results) console.log(`| ${r.list} | ${r.filter} | ${r.rows} | ${r.median.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.median > SLOW_MS ? 'SLOW' : ''} |`);
    if (process.env.BENCH_KEEP_DATABASE) log(`database kept: BENCH_DATABASE_URL=${databaseUrl}`);
  } finally {
    for (const child of children) await stopChild(child);
    await db.end();
    if (!reused && !process.env.BENCH_KEEP_DATABASE) await dropTestDatabase(databaseUrl, serverUrl);
  }
}

/** The requests measured: each list unfiltered, then each filter matching none, few and many rows. */
function cases(): Case[] {
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
  /** A calendar date (YYYY-MM-DD, UTC), for the invoices' due dates. */
  const date = (daysAgo: number) => day(daysAgo).slice(0, 10);
  const logs = `/api/v1/webhooks/${ENDPOINT_REFERENCE}/logs`;
  return [
    { list: 'payments', filter: 'first page', path: '/api/v1/payments' },
    { list: 'payments', filter: `${DEEP_ROWS} rows deep`, path: '/api/v1/payments', deep: true },
    { list: 'payments', filter: 'currency=USD (none)', path: '/api/v1/payments?currency=USD' },
    { list: 'payments', filter: 'currency=KES (few)', path: '/api/v1/payments?currency=KES' },
    { list: 'payments', filter: 'currency=NGN (many)', path: '/api/v1/payments?currency=NGN' },
    { list: 'payments', filter: 'status=cancelled (none)', path: '/api/v1/payments?status=cancelled' },
    { list: 'payments', filter: 'status=pending (few)', path: '/api/v1/payments?status=pending' },
    { list: 'payments', filter: 'status=success (many)', path: '/api/v1/payments?status=success' },
    { list: 'payments', filter: 'status=failed&currency=USD (none)', path: '/api/v1/payments?status=failed&currency=USD' },
    { list: 'payments', filter: 'customer (none)', path: '/api/v1/payments?customer=CUS_bench_none' },
    { list: 'payments', filter: 'customer (few)', path: '/api/v1/payments?customer=CUS_bench_few' },
    { list: 'payments', filter: 'customer (many)', path: '/api/v1/payments?customer=CUS_bench_1' },
    { list: 'payments', filter: 'from/to, a day a year ago', path: `/api/v1/payments?from=${day(360)}&to=${day(359)}` },
    { list: 'payments', filter: 'currency=USD (none), the last year', path: `/api/v1/payments?currency=USD&from=${day(365)}` },
    { list: 'payments', filter: 'status=pending (few), the last year', path: `/api/v1/payments?status=pending&from=${day(365)}` },
    { list: 'customers', filter: 'first page', path: '/api/v1/customers' },
    { list: 'customers', filter: `${DEEP_ROWS} rows deep`, path: '/api/v1/customers', deep: true },
    { list: 'customers', filter: 'email (none)', path: '/api/v1/customers?email=nobody@example.com' },
    { list: 'customers', filter: 'email (one)', path: '/api/v1/customers?email=customer-7@example.com' },
    { list: 'refunds', filter: 'first page', path: '/api/v1/refunds' },
    { list: 'refunds', filter: `${DEEP_ROWS} rows deep`, path: '/api/v1/refunds', deep: true },
    { list: 'refunds', filter: 'payment (none)', path: '/api/v1/refunds?payment=PAY-bench-none' },
    { list: 'refunds', filter: 'payment (one)', path: '/api/v1/refunds?payment=PAY-bench-7' },
    { list: 'ledger', filter: 'first page', path: '/api/v1/wallet/ledger' },
    { list: 'ledger', filter: `${DEEP_ROWS} rows deep`, path: '/api/v1/wallet/ledger', deep: true },
    { list: 'ledger', filter: 'currency=USD (none)', path: '/api/v1/wallet/ledger?currency=USD' },
    { list: 'ledger', filter: 'currency=KES (few)', path: '/api/v1/wallet/ledger?currency=KES' },
    { list: 'ledger', filter: 'type=settlement (none)', path: '/api/v1/wallet/ledger?type=settlement' },
    { list: 'ledger', filter: 'type=debit (few)', path: '/api/v1/wallet/ledger?type=debit' },
    { list: 'ledger', filter: 'type=credit (many)', path: '/api/v1/wallet/ledger?type=credit' },
    { list: 'ledger', filter: 'reference (none)', path: '/api/v1/wallet/ledger?reference=PAY-bench-none' },
    { list: 'ledger', filter: 'reference (one)', path: '/api/v1/wallet/ledger?reference=PAY-bench-7' },
    { list: 'ledger', filter: 'from/to, a day a year ago', path: `/api/v1/wallet/ledger?from=${day(360)}&to=${day(359)}` },
    // A time range is read through the GiST index of the type and the time: with a type, its subtrees only.
    { list: 'ledger', filter: `from, the last year, ${DEEP_ROWS} rows deep`, path: `/api/v1/wallet/ledger?from=${day(365)}`, deep: true },
    { list: 'ledger', filter: 'type=debit (few), the last year', path: `/api/v1/wallet/ledger?type=debit&from=${day(365)}` },
    { list: 'ledger', filter: 'type=settlement (none), the last year', path: `/api/v1/wallet/ledger?type=settlement&from=${day(365)}` },
    { list: 'ledger', filter: 'type=debit (few), a day a year ago', path: `/api/v1/wallet/ledger?type=debit&from=${day(360)}&to=${day(359)}` },
    { list: 'ledger', filter: 'type=credit (many), a day a year ago', path: `/api/v1/wallet/ledger?type=credit&from=${day(360)}&to=${day(359)}` },
    { list: 'ledger', filter: 'currency=KES (few), the last year', path: `/api/v1/wallet/ledger?currency=KES&from=${day(365)}` },
    { list: 'transfers', filter: 'first page', path: '/api/v1/transfers' },
    { list: 'transfers', filter: `${DEEP_ROWS} rows deep`, path: '/api/v1/transfers', deep: true },
    { list: 'transfers', filter: 'status=pending (few)', path: '/api/v1/transfers?status=pending' },
    { list: 'transfers', filter: 'status=reversed (none)', path: '/api/v1/transfers?status=reversed' },
    { list: 'transfers', filter: 'status=success (many)', path: '/api/v1/transfers?status=success' },
    { list: 'transfers', filter: 'currency=USD (none)', path: '/api/v1/transfers?currency=USD' },
    { list: 'transfers', filter: 'currency=KES (few)', path: '/api/v1/transfers?currency=KES' },
    { list: 'transfers', filter: 'recipient (none)', path: '/api/v1/transfers?recipient=RCP_bench_none' },
    { list: 'transfers', filter: 'recipient (few)', path: '/api/v1/transfers?recipient=RCP_bench_few' },
    { list: 'transfers', filter: 'recipient (many)', path: '/api/v1/transfers?recipient=RCP_bench_many' },
    { list: 'transfers', filter: 'from/to, a day a year ago', path: `/api/v1/transfers?from=${day(360)}&to=${day(359)}` },
    { list: 'request-logs', filter: 'first page', path: '/api/portal/request-logs' },
    { list: 'request-logs', filter: `${DEEP_ROWS} rows deep`, path: '/api/portal/request-logs', deep: true },
    { list: 'request-logs', filter: 'status=503 (none)', path: '/api/portal/request-logs?status=503' },
    { list: 'request-logs', filter: 'status_class=5xx (few)', path: '/api/portal/request-logs?status_class=5xx' },
    { list: 'request-logs', filter: 'status_class=4xx (some)', path: '/api/portal/request-logs?status_class=4xx' },
    { list: 'request-logs', filter: 'path (none)', path: '/api/portal/request-logs?path=subscriptions' },
    { list: 'request-logs', filter: 'path (few)', path: '/api/portal/request-logs?path=transfers' },
    { list: 'request-logs', filter: 'path (many)', path: '/api/portal/request-logs?path=payments' },
    { list: 'request-logs', filter: 'request_id (none)', path: '/api/portal/request-logs?request_id=req_none' },
    { list: 'request-logs', filter: 'request_id (one, 80 days old)', path: `/api/portal/request-logs?request_id=req_bench_${ROWS - Math.floor(ROWS / 9)}` },
    { list: 'request-logs', filter: 'from/to, a day 60 days ago', path: `/api/portal/request-logs?from=${day(60)}&to=${day(59)}` },
    { list: 'deliveries', filter: 'endpoint attempts, first page', path: logs },
    { list: 'deliveries', filter: `endpoint attempts, ${DEEP_ROWS} rows deep`, path: logs, deep: true },
    { list: 'deliveries', filter: 'failed attempts of the account (few)', path: '/api/portal/webhooks/deliveries/failed' },
    { list: 'events', filter: 'from the start', path: '/api/v1/events' },
    { list: 'events', filter: `${DEEP_ROWS} events in`, path: '/api/v1/events', deep: true, continueWith: 'after' },
    { list: 'events', filter: 'after=now (caught up)', path: '/api/v1/events?after=now' },
    { list: 'events', filter: 'type=transfer.failed (none), from the start', path: '/api/v1/events?type=transfer.failed' },
    { list: 'events', filter: 'type=refund.completed (few), from the start', path: '/api/v1/events?type=refund.completed' },
    { list: 'events', filter: 'type=payment.success (many), from the start', path: '/api/v1/events?type=payment.success' },
    { list: 'events', filter: 'type=transfer.failed,refund.completed,customer.created (none, few, some)', path: '/api/v1/events?type=transfer.failed,refund.completed,customer.created' },
    { list: 'events', filter: `type=refund.completed,payment.success, ${DEEP_ROWS} events in`, path: '/api/v1/events?type=refund.completed,payment.success', deep: true, continueWith: 'after' },
    { list: 'disputes', filter: 'first page', path: '/api/v1/disputes' },
    { list: 'disputes', filter: `${DEEP_ROWS} rows deep`, path: '/api/v1/disputes', deep: true },
    { list: 'disputes', filter: 'status=under_review (none)', path: '/api/v1/disputes?status=under_review' },
    { list: 'disputes', filter: 'status=open (few)', path: '/api/v1/disputes?status=open' },
    { list: 'disputes', filter: 'status=won (some)', path: '/api/v1/disputes?status=won' },
    { list: 'disputes', filter: 'status=lost (many)', path: '/api/v1/disputes?status=lost' },
    { list: 'virtual-accounts', filter: 'first page', path: '/api/v1/virtual-accounts' },
    { list: 'virtual-accounts', filter: `${DEEP_ROWS} rows deep`, path: '/api/v1/virtual-accounts', deep: true },
    { list: 'virtual-accounts', filter: 'status=inactive (few)', path: '/api/v1/virtual-accounts?status=inactive' },
    { list: 'virtual-accounts', filter: 'status=active (many)', path: '/api/v1/virtual-accounts?status=active' },
    { list: 'virtual-accounts', filter: 'customer (none)', path: '/api/v1/virtual-accounts?customer=CUS_bench_none' },
    { list: 'virtual-accounts', filter: 'customer (one)', path: '/api/v1/virtual-accounts?customer=CUS_bench_7' },
    { list: 'virtual-accounts', filter: 'customer (few: one active, two replaced)', path: '/api/v1/virtual-accounts?customer=CUS_bench_few' },
    { list: 'virtual-accounts', filter: 'status=inactive&customer (none)', path: '/api/v1/virtual-accounts?status=inactive&customer=CUS_bench_7' },
    { list: 'subscriptions', filter: 'first page', path: '/api/v1/subscriptions' },
    { list: 'subscriptions', filter: `${DEEP_ROWS} rows deep`, path: '/api/v1/subscriptions', deep: true },
    { list: 'subscriptions', filter: 'status=trialing (none)', path: '/api/v1/subscriptions?status=trialing' },
    { list: 'subscriptions', filter: 'status=paused (few)', path: '/api/v1/subscriptions?status=paused' },
    { list: 'subscriptions', filter: 'status=active (many)', path: '/api/v1/subscriptions?status=active' },
    { list: 'subscriptions', filter: 'plan (none)', path: '/api/v1/subscriptions?plan=PLN_bench_none' },
    { list: 'subscriptions', filter: 'plan (few)', path: '/api/v1/subscriptions?plan=PLN_bench_few' },
    { list: 'subscriptions', filter: 'plan (many)', path: '/api/v1/subscriptions?plan=PLN_bench_many' },
    { list: 'subscriptions', filter: 'customer (none)', path: '/api/v1/subscriptions?customer=CUS_bench_none' },
    { list: 'subscriptions', filter: 'customer (few)', path: '/api/v1/subscriptions?customer=CUS_bench_few' },
    { list: 'subscriptions', filter: 'customer (many)', path: '/api/v1/subscriptions?customer=CUS_bench_1' },
    { list: 'subscriptions', filter: 'status=paused&plan (none)', path: '/api/v1/subscriptions?status=paused&plan=PLN_bench_few' },
    { list: 'invoices', filter: 'first page', path: '/api/v1/invoices' },
    { list: 'invoices', filter: `${DEEP_ROWS} rows deep`, path: '/api/v1/invoices', deep: true },
    { list: 'invoices', filter: 'status=cancelled (none)', path: '/api/v1/invoices?status=cancelled' },
    { list: 'invoices', filter: 'status=partially_paid (few)', path: '/api/v1/invoices?status=partially_paid' },
    { list: 'invoices', filter: 'status=overdue (some)', path: '/api/v1/invoices?status=overdue' },
    { list: 'invoices', filter: 'status=paid (many)', path: '/api/v1/invoices?status=paid' },
    { list: 'invoices', filter: 'customer (none)', path: '/api/v1/invoices?customer=CUS_bench_none' },
    { list: 'invoices', filter: 'customer (few)', path: '/api/v1/invoices?customer=CUS_bench_few' },
    { list: 'invoices', filter: 'customer (many)', path: '/api/v1/invoices?customer=CUS_bench_1' },
    { list: 'invoices', filter: 'due_from, three years ahead (none)', path: `/api/v1/invoices?due_from=${date(-3 * 365)}` },
    { list: 'invoices', filter: 'due_from/due_to, one day 300 days ago', path: `/api/v1/invoices?due_from=${date(300)}&due_to=${date(300)}` },
    { list: 'invoices', filter: 'due_to, the oldest week', path: `/api/v1/invoices?due_to=${date(330)}` },
    { list: 'invoices', filter: 'due_from, a year ago (all)', path: `/api/v1/invoices?due_from=${date(365)}` },
    { list: 'invoices', filter: 'status=overdue&due_from, next month (none)', path: `/api/v1/invoices?status=overdue&due_from=${date(-30)}` },
    { list: 'invoices', filter: 'status=sent&due_to, 200 days ago (none)', path: `/api/v1/invoices?status=sent&due_to=${date(200)}` },
    { list: 'settlements', filter: 'first page', path: '/api/v1/wallet/settlements' },
    { list: 'settlements', filter: `${DEEP_ROWS} rows deep`, path: '/api/v1/wallet/settlements', deep: true },
    { list: 'settlements', filter: 'status=pending_approval (none)', path: '/api/v1/wallet/settlements?status=pending_approval' },
    { list: 'settlements', filter: 'status=processing (few)', path: '/api/v1/wallet/settlements?status=processing' },
    { list: 'settlements', filter: 'status=completed (many)', path: '/api/v1/wallet/settlements?status=completed' },
    { list: 'settlements', filter: 'currency=USD (none)', path: '/api/v1/wallet/settlements?currency=USD' },
    { list: 'settlements', filter: 'currency=KES (few)', path: '/api/v1/wallet/settlements?currency=KES' },
    { list: 'settlements', filter: 'currency=NGN (many)', path: '/api/v1/wallet/settlements?currency=NGN' },
    { list: 'settlements', filter: 'from/to, a day a year ago', path: `/api/v1/wallet/settlements?from=${day(360)}&to=${day(359)}` },
    { list: 'settlements', filter: 'from/to, before the first (none)', path: `/api/v1/wallet/settlements?from=${day(500)}&to=${day(400)}` },
    { list: 'settlements', filter: 'from, the last day', path: `/api/v1/wallet/settlements?from=${day(1)}` },
    { list: 'settlements', filter: 'to, the oldest day', path: `/api/v1/wallet/settlements?to=${day(364)}` },
    { list: 'recipients', filter: 'first page', path: '/api/v1/transfers/recipients' },
    { list: 'recipients', filter: `${DEEP_ROWS} rows deep`, path: '/api/v1/transfers/recipients', deep: true },
    { list: 'plans', filter: 'first page', path: '/api/v1/subscriptions/plans' },
    { list: 'plans', filter: `${DEEP_ROWS} rows deep`, path: '/api/v1/subscriptions/plans', deep: true },
    { list: 'plans', filter: 'active=false (few)', path: '/api/v1/subscriptions/plans?active=false' },
    { list: 'plans', filter: 'active=true (many)', path: '/api/v1/subscriptions/plans?active=true' },
    { list: 'plans', filter: 'interval=daily (none)', path: '/api/v1/subscriptions/plans?interval=daily' },
    { list: 'plans', filter: 'interval=weekly (few)', path: '/api/v1/subscriptions/plans?interval=weekly' },
    { list: 'plans', filter: 'interval=monthly (many)', path: '/api/v1/subscriptions/plans?interval=monthly' },
    { list: 'plans', filter: 'currency=USD (none)', path: '/api/v1/subscriptions/plans?currency=USD' },
    { list: 'plans', filter: 'currency=KES (few)', path: '/api/v1/subscriptions/plans?currency=KES' },
    { list: 'plans', filter: 'currency=NGN (many)', path: '/api/v1/subscriptions/plans?currency=NGN' },
  ];
}

/** One test-mode account (key with every read scope, a portal owner), then each list's rows in plain SQL. */
async function seed(db: Client, env: Record<string, string>): Promise<Account> {
  const app = await createApiApp({ config: loadConfig(env), databaseUrl: env.DATABASE_URL, logger: false });
  let developerId: string;
  let key: string;
  let liveKey: string;
  try {
    const developer = await app.get(DevelopersService, { strict: false }).create({ email: EMAIL, name: 'Big account', emailVerified: true, identityVerified: true });
    developerId = developer.id;
    key = (await app.get(ApiKeysService, { strict: false }).issue({ developerId, mode: 'test', kind: 'secret', scopes: SCOPES })).secret;
    liveKey = (await app.get(ApiKeysService, { strict: false }).issue({ developerId, mode: 'live', kind: 'secret', scopes: SCOPES })).secret;
    // A member of the account: created as staff is (verified e-mail, password), then made its owner.
    const user = await app.get(UsersService, { strict: false }).createPlatformUser({ email: EMAIL, name: 'Owner', password: PASSWORD, platformRole: 'admin' });
    await db.query(`UPDATE users SET platform_role = NULL WHERE id = $1`, [user.id]);
    await db.query(`INSERT INTO memberships (user_id, developer_id, role) VALUES ($1, $2, 'owner')`, [user.id, developerId]);
  } finally {
    await app.close();
  }
  const started = performance.now();
  const params = [developerId, SPREAD_SECONDS];
  // Customer g is the customer of row g of the lists below (payments, virtual accounts, subscriptions, invoices).
  if (LISTS.some((l) => ['payments', 'customers', 'refunds', 'disputes', 'virtual-accounts', 'subscriptions', 'invoices'].includes(l))) {
    await timed('customers', () =>
      loadThenIndex(db, 'customers', async () => {
        await chunked(db, CUSTOMERS_SQL, params);
        await db.query(
          `INSERT INTO customers (developer_id, mode, reference, email, created_at)
           VALUES ($1, 'test', 'CUS_bench_few', 'few@example.com', now() - interval '400 days'),
                  ($1, 'test', 'CUS_bench_none', 'none@example.com', now() - interval '400 days')`,
          [developerId],
        );
      }),
    );
  }
  if (LISTS.some((l) => ['payments', 'refunds', 'disputes'].includes(l))) await timed('payments', () => loadThenIndex(db, 'payments', () => chunked(db, PAYMENTS_SQL, params)));
  if (LISTS.includes('refunds')) await timed('refunds', () => loadThenIndex(db, 'refunds', () => chunked(db, REFUNDS_SQL, params)));
  if (LISTS.includes('ledger')) await timed('ledger entries', () => loadThenIndex(db, 'ledger_entries', () => seedLedger(db, developerId)));
  if (LISTS.includes('request-logs')) await timed('request logs', () => loadThenIndex(db, 'request_logs', () => seedRequestLogs(db, developerId)));
  const endpointId = await seedEndpoint(db, developerId);
  if (LISTS.includes('deliveries')) {
    const attempts = () => chunked(db, DELIVERY_LOGS_SQL, [developerId, SPREAD_SECONDS, endpointId]);
    await timed('webhook delivery attempts', () => loadThenIndex(db, 'webhook_delivery_logs', attempts));
  }
  if (LISTS.includes('transfers')) await timed('transfers', () => seedTransfers(db, developerId));
  if (LISTS.includes('events')) await timed('events', () => loadThenIndex(db, 'events', () => chunked(db, EVENTS_SQL, [...params, ROWS])));
  if (LISTS.includes('disputes')) await timed('disputes', () => loadThenIndex(db, 'disputes', () => chunked(db, DISPUTES_SQL, [...params, ROWS])));
  if (LISTS.includes('virtual-accounts')) await timed('virtual accounts', () => loadThenIndex(db, 'virtual_accounts', () => chunked(db, VIRTUAL_ACCOUNTS_SQL, params)));
  if (LISTS.includes('plans')) await timed('plans', () => loadThenIndex(db, 'subscription_plans', () => chunked(db, PLANS_SQL, params)));
  if (LISTS.includes('subscriptions')) await timed('subscriptions', () => seedSubscriptions(db, developerId));
  if (LISTS.includes('invoices')) await timed('invoices', () => loadThenIndex(db, 'invoices', () => chunked(db, INVOICES_SQL, params)));
  // $5: every so many rows an auto-settlement, a day apart at least (one per day and currency: settlements_auto_period).
  if (LISTS.includes('settlements')) await timed('settlements', () => loadThenIndex(db, 'settlements', () => chunked(db, SETTLEMENTS_SQL, [...params, Math.floor(ROWS / 365) + 1])));
  if (LISTS.includes('recipients')) await timed('transfer recipients', () => loadThenIndex(db, 'transfer_recipients', () => chunked(db, RECIPIENTS_SQL, params)));
  await timed('ANALYZE', () => db.query('VACUUM ANALYZE'));
  log(`seeded in ${seconds(started)} s`);
  return { developerId, key, liveKey };
}

/**
 * Loads `table` with its indexes other than keys dropped, then builds each again from its own
 * definition (pg_get_indexdef, so exactly what the migrations made): one sort per index instead of
 * N insertions into it — the slow part of seeding millions of rows. Keys and unique constraints
 * stay, so the load is checked as the API's writes are. A partitioned table's indexes are rebuilt
 * on every partition (its definition reads `ON ONLY`, which would build the parent's alone).
 */
async function loadThenIndex(db: Client, table: string, load: () => Promise<void>): Promise<void> {
  const { rows: indexes } = (await db.query(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    [table],
  )) as { rows: Array<{ name: string; definition: string }> };
  for (const { name } of indexes) await db.query(`DROP INDEX ${name}`);
  await load();
  await db.query(`SET maintenance_work_mem = '1GB'`);
  for (const { name, definition } of indexes) await timed(`  index ${name}`, () => db.query(definition.replace(' ON ONLY ', ' ON ')));
}

/** `sql` once per CHUNK rows: $1 developer, $2 spread, $3/$4 the chunk's first and last g, then the rest of `params` from $5. */
async function chunked(db: Client, sql: string, params: unknown[]): Promise<void> {
  const [developerId, spread, ...rest] = params;
  for (let first = 1; first <= ROWS; first += CHUNK) await db.query(sql, [developerId, spread, first, Math.min(first + CHUNK - 1, ROWS), ...rest]);
}

// Customer n is row g = n; payments of customer 1 are many (every 1,000th), 'CUS_bench_few' has three, 'CUS_bench_none' none.
const CUSTOMERS_SQL = `
  INSERT INTO customers (developer_id, mode, reference, email, created_at)
  SELECT $1, 'test', 'CUS_bench_' || g, 'customer-' || g || '@example.com', now() - g * ($2::float8 * interval '1 second')
    FROM generate_series($3::int, $4::int) g`;

// 85 % success, 10 % failed, 5 % abandoned, 1 in 100,000 pending; NGN but 1 in 100,000 KES; no USD.
const PAYMENTS_SQL = `
  INSERT INTO payments (developer_id, mode, reference, status, customer_id, customer_reference, email, amount, currency, amount_refunded,
                        platform_fee, provider_fee, net_amount, paid_at, created_at, updated_at)
  SELECT $1, 'test', 'PAY-bench-' || g, s.status, c.id, c.reference, c.email, 100 + g % 9000, CASE WHEN g % 100000 = 7 THEN 'KES' ELSE 'NGN' END, 0,
         CASE WHEN s.status = 'success' THEN 1 END, CASE WHEN s.status = 'success' THEN 1 END,
         CASE WHEN s.status = 'success' THEN 98 + g % 9000 END, CASE WHEN s.status = 'success' THEN s.t END, s.t, s.t
    FROM generate_series($3::int, $4::int) g
   CROSS JOIN LATERAL (
     SELECT now() - g * ($2::float8 * interval '1 second') AS t,
            CASE WHEN g % 100000 = 3 THEN 'pending' WHEN g % 20 < 17 THEN 'success' WHEN g % 20 < 19 THEN 'failed' ELSE 'abandoned' END AS status) s
    JOIN customers c ON c.developer_id = $1 AND c.reference = CASE WHEN g % 1000 = 0 THEN 'CUS_bench_1' WHEN g IN (11, 12, 13) THEN 'CUS_bench_few' ELSE 'CUS_bench_' || g END`;

// One refund per payment, a moment (one spread) after it: processed, 1 in 100,000 pending, none failed.
const REFUNDS_SQL = `
  INSERT INTO refunds (developer_id, mode, reference, payment_id, payment_reference, amount, currency, status, created_at, updated_at)
  SELECT p.developer_id, 'test', 'RFD-bench-' || g, p.id, p.reference, 50, p.currency,
         CASE WHEN g % 100000 = 5 THEN 'pending' ELSE 'processed' END, p.created_at + $2::float8 * interval '1 second', p.created_at + $2::float8 * interval '1 second'
    FROM generate_series($3::int, $4::int) g
    JOIN payments p ON p.reference = 'PAY-bench-' || g
   WHERE p.developer_id = $1`;

/** Wallet entries (a posting per currency holds them: the list never reads postings), oldest first so seq follows time. */
async function seedLedger(db: Client, developerId: string): Promise<void> {
  // A line's posting is in the line's currency (ledger_entries_posting_tenant_fkey): one posting for each.
  const [{ id: ngnPosting }, { id: kesPosting }] = (
    await db.query(
      `INSERT INTO ledger_postings (developer_id, mode, currency, source_type, source_id, kind)
       VALUES ($1, 'test', 'NGN', 'bench', 'bench-ngn', 'bench'), ($1, 'test', 'KES', 'bench', 'bench-kes', 'bench') RETURNING id`,
      [developerId],
    )
  ).rows as Array<{ id: string }>;
  for (let last = ROWS; last >= 1; last -= CHUNK) {
    await db.query(
      `INSERT INTO ledger_entries (posting_id, developer_id, mode, currency, account, bucket, entry_type, amount, reference, description, created_at, chain_slot, hash)
       SELECT CASE WHEN g % 100000 = 7 THEN $6::uuid ELSE $3::uuid END, $1, 'test', CASE WHEN g % 100000 = 7 THEN 'KES' ELSE 'NGN' END, 'wallet', 'available',
              CASE WHEN g % 100000 = 9 THEN 'debit' WHEN g % 2 = 0 THEN 'credit' ELSE 'fee' END,
              CASE WHEN g % 2 = 0 THEN 100 ELSE -1 END, 'PAY-bench-' || g, 'bench', now() - g * ($2::float8 * interval '1 second'), g % 16, sha256(g::text::bytea)
         FROM generate_series($4::int, $5::int, -1) g`,
      [developerId, SPREAD_SECONDS, ngnPosting, last, Math.max(1, last - CHUNK + 1), kesPosting],
    );
  }
}

/**
 * Live-mode transfers out of the wallet over a year: 90 % success, 10 % failed, 1 in 100,000
 * pending, none reversed; NGN, 1 in 100,000 KES, no USD; all to one recipient but three, which go
 * to a second (a third has none).
 */
async function seedTransfers(db: Client, developerId: string): Promise<void> {
  await db.query(
    `INSERT INTO transfer_recipients (developer_id, mode, recipient_code, account_name, account_number, bank_code, bank_name, currency,
                                      provider_recipient_code, created_at)
     SELECT $1, 'live', 'RCP_bench_' || r, 'Bench ' || r, lpad(n::text, 10, '0'), '058', 'Bench Bank', 'NGN', 'RCP_provider_' || r, now() - interval '400 days'
       FROM unnest(ARRAY['many', 'few', 'none']) WITH ORDINALITY AS x(r, n)`,
    [developerId],
  );
  await loadThenIndex(db, 'transfers', () =>
    chunked(
      db,
      `INSERT INTO transfers (developer_id, mode, reference, source, recipient_id, amount, currency, status, created_at, completed_at, updated_at)
       SELECT $1, 'live', 'trf_bench_' || lpad(g::text, 10, '0'), 'wallet', r.id, 1000 + g % 9000,
              CASE WHEN g % 100000 = 7 THEN 'KES' ELSE 'NGN' END, s.status, s.t, CASE WHEN s.status <> 'pending' THEN s.t END, s.t
         FROM generate_series($3::int, $4::int) g
        CROSS JOIN LATERAL (
          SELECT now() - g * ($2::float8 * interval '1 second') AS t,
                 CASE WHEN g % 100000 = 3 THEN 'pending' WHEN g % 10 = 9 THEN 'failed' ELSE 'success' END AS status) s
         JOIN transfer_recipients r ON r.developer_id = $1 AND r.mode = 'live' AND r.recipient_code = CASE WHEN g IN (11, 12, 13) THEN 'RCP_bench_few' ELSE 'RCP_bench_many' END`,
      [developerId, SPREAD_SECONDS],
    ),
  );
}

/** 90 days of requests, in partitions of a week as the scheduler's upkeep keeps them. */
async function seedRequestLogs(db: Client, developerId: string): Promise<void> {
  // The upkeep's steady state (RequestLogPartitionsService): a partition per week (from Monday,
  // UTC) back past the retention and a week ahead, in place of the migration's (empty) days.
  await db.query(`
    DO $$ DECLARE t text; w date; BEGIN
      FOR t IN SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                WHERE i.inhparent = 'request_logs'::regclass AND c.relname ~ '^request_logs_p\\d{8}$' LOOP
        EXECUTE format('DROP TABLE %I', t);
      END LOOP;
      FOR w IN SELECT generate_series(date_trunc('week', current_date - ${REQUEST_LOG_DAYS + 1}), current_date + 7, interval '7 days')::date LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF request_logs FOR VALUES FROM (%L) TO (%L)',
          'request_logs_w' || to_char(w, 'YYYYMMDD'), w::timestamp AT TIME ZONE 'UTC', (w + 7)::timestamp AT TIME ZONE 'UTC');
      END LOOP; END $$`);
  const spread = (REQUEST_LOG_DAYS * 86_400) / ROWS;
  // 2xx, 1 in 50 a 4xx, 1 in 100,000 a 500; paths mostly payments, 1 in 100,000 a transfer.
  await chunked(
    db,
    `INSERT INTO request_logs (request_id, created_at, duration_ms, developer_id, mode, method, path, route, status_code)
     SELECT 'req_bench_' || g, now() - g * ($2::float8 * interval '1 second'), 12, $1, 'test', 'GET',
            CASE WHEN g % 100000 = 11 THEN '/api/v1/transfers/' || g WHEN g % 3 = 0 THEN '/api/v1/customers/' || g ELSE '/api/v1/payments/' || g END,
            NULL, CASE WHEN g % 100000 = 13 THEN 500 WHEN g % 50 = 0 THEN 404 ELSE 200 END
       FROM generate_series($3::int, $4::int) g`,
    [developerId, spread],
  );
}

async function seedEndpoint(db: Client, developerId: string): Promise<string> {
  const [{ id: endpointId }] = (
    await db.query(
      `INSERT INTO webhook_endpoints (reference, developer_id, mode, url, events, webhook_version, secret_ciphertext, created_at, updated_at)
       VALUES ($2, $1, 'test', 'https://example.com/hooks', '{payment.success}', 'v1', 'unused', now(), now()) RETURNING id`,
      [developerId, ENDPOINT_REFERENCE],
    )
  ).rows as Array<{ id: string }>;
  await db.query(`INSERT INTO events (id, developer_id, mode, name, data, created_at) VALUES ('evt_bench', $1, 'test', 'payment.success', '{}', now())`, [developerId]);
  await db.query(
    `INSERT INTO webhook_deliveries (developer_id, mode, endpoint_id, event_id, status, next_attempt_at, created_at) VALUES ($1, 'test', $2, 'evt_bench', 'delivered', now(), now())`,
    [developerId, endpointId],
  );
  return endpointId;
}

// Attempts of one delivery (the lists never read deliveries), 1 in 100,000 failed.
const DELIVERY_LOGS_SQL = `
  INSERT INTO webhook_delivery_logs (reference, delivery_id, developer_id, mode, endpoint_id, event_id, event_name, attempt, trigger, success, status_code, latency_ms, created_at)
  SELECT 'WHL_bench_' || g, d.id, $1, 'test', $5, 'evt_bench', 'payment.success', g, 'automatic', g % 100000 <> 17,
         CASE WHEN g % 100000 = 17 THEN 500 ELSE 200 END, 40, now() - g * ($2::float8 * interval '1 second')
    FROM generate_series($3::int, $4::int) g, webhook_deliveries d WHERE d.endpoint_id = $5`;

// The account's events in feed order, oldest first: 85 % payment.success, 10 % payment.failed,
// 5 % customer.created, 1 in 100,000 refund.completed, no transfer.failed. A chunk is one
// transaction, so its events share a feed_txid and take feed_seq in series order.
const EVENTS_SQL = `
  INSERT INTO events (id, developer_id, mode, name, data, created_at)
  SELECT 'evt_bench' || lpad(g::text, 15, '0'), $1, 'test',
         CASE WHEN g % 100000 = 5 THEN 'refund.completed' WHEN g % 20 < 17 THEN 'payment.success' WHEN g % 20 < 19 THEN 'payment.failed' ELSE 'customer.created' END,
         jsonb_build_object('reference', 'PAY-bench-' || g, 'amount', 100 + g % 9000), now() - ($5::int - g) * ($2::float8 * interval '1 second')
    FROM generate_series($3::int, $4::int) g`;

// Chargebacks on successful payments, each a moment (half a spread) after its payment: dispute g is on
// payment g, or on the next successful one (payment g is then disputed twice); 75 % lost, 25 % won,
// 1 in 100,000 open (its evidence due in the future), none under review. $5: the last payment.
const DISPUTES_SQL = `
  INSERT INTO disputes (developer_id, mode, reference, payment_id, payment_reference, amount, held_amount, currency, reason, status,
                        evidence_due_at, provider_dispute_id, resolved_at, created_at, updated_at)
  SELECT $1, 'test', 'DSP_bench_' || g, p.id, p.reference, p.amount, p.amount, p.currency, 'fraudulent', s.status,
         s.t + interval '16 days', 'bench-dispute-' || g, CASE WHEN s.status <> 'open' THEN s.closed END, s.t,
         CASE WHEN s.status <> 'open' THEN s.closed ELSE s.t END
    FROM generate_series($3::int, $4::int) g
   CROSS JOIN LATERAL (
     SELECT now() - (g - 0.5) * ($2::float8 * interval '1 second') AS t, LEAST(now() - (g - 0.5) * ($2::float8 * interval '1 second') + interval '10 days', now()) AS closed,
            CASE WHEN g % 100000 = 3 THEN 'open' WHEN g % 4 = 0 THEN 'won' ELSE 'lost' END AS status) s
    JOIN payments p ON p.reference = 'PAY-bench-' || LEAST(CASE WHEN g % 100000 = 3 THEN g + 1 WHEN g % 20 >= 17 THEN g + 3 ELSE g END, $5::int)
   WHERE p.developer_id = $1`;

// A dedicated NGN account per customer, opened a moment after the customer: active but 1 in 100,000
// deactivated; 'CUS_bench_few' has three (two deactivated, then replaced), 'CUS_bench_none' none.
const VIRTUAL_ACCOUNTS_SQL = `
  INSERT INTO virtual_accounts (id, developer_id, mode, public_id, customer_id, customer_reference, account_number, account_name, bank_name, currency,
                                status, provider_account_id, provider_customer_code, created_at, deactivated_at, updated_at)
  SELECT gen_random_uuid(), $1, 'test', 'va_bench_' || g, c.id, c.reference, lpad(g::text, 10, '0'), 'BIG ACCOUNT/' || c.reference, 'Wema Bank', 'NGN',
         s.status, 'bench-dva-' || g, 'CUS_provider_' || g, s.t, CASE WHEN s.status = 'inactive' THEN s.t + $2::float8 / 2 * interval '1 second' END,
         s.t + CASE WHEN s.status = 'inactive' THEN $2::float8 / 2 ELSE 0 END * interval '1 second'
    FROM generate_series($3::int, $4::int) g
   CROSS JOIN LATERAL (
     SELECT now() - (g - 0.5) * ($2::float8 * interval '1 second') AS t,
            CASE WHEN g IN (12, 13) OR g % 100000 = 5 THEN 'inactive' ELSE 'active' END AS status) s
    JOIN customers c ON c.developer_id = $1 AND c.reference = CASE WHEN g IN (11, 12, 13) THEN 'CUS_bench_few' ELSE 'CUS_bench_' || g END`;

// A catalogue: active but 1 in 100,000 archived; monthly, 10 % yearly, 1 in 100,000 weekly, none
// daily; NGN, 1 in 100,000 KES, no USD.
const PLANS_SQL = `
  INSERT INTO subscription_plans (id, developer_id, mode, public_id, name, amount, currency, interval, trial_period_days, active, archived_at, created_at, updated_at)
  SELECT gen_random_uuid(), $1, 'test', 'PLN_bench_' || g, 'Plan ' || g, 1000 + g % 9000, CASE WHEN g % 100000 = 7 THEN 'KES' ELSE 'NGN' END,
         CASE WHEN g % 100000 = 5 THEN 'weekly' WHEN g % 10 = 0 THEN 'yearly' ELSE 'monthly' END, CASE WHEN g % 4 = 0 THEN 7 ELSE 0 END,
         g % 100000 <> 3, CASE WHEN g % 100000 = 3 THEN s.t + $2::float8 / 2 * interval '1 second' END, s.t,
         s.t + CASE WHEN g % 100000 = 3 THEN $2::float8 / 2 ELSE 0 END * interval '1 second'
    FROM generate_series($3::int, $4::int) g
   CROSS JOIN LATERAL (SELECT now() - g * ($2::float8 * interval '1 second') AS t) s`;

/**
 * Monthly subscriptions to one plan ('PLN_bench_many'; three to 'PLN_bench_few', none to
 * 'PLN_bench_none'), customers as the payments' (every 1,000th of 'CUS_bench_1'): 90 % active, 5 %
 * past due, 5 % cancelled, 1 in 100,000 paused, none trialing; billed from their creation, each in
 * its current month.
 */
async function seedSubscriptions(db: Client, developerId: string): Promise<void> {
  await db.query(
    `INSERT INTO subscription_plans (id, developer_id, mode, public_id, name, amount, currency, interval, trial_period_days, active, created_at, updated_at)
     SELECT gen_random_uuid(), $1, 'test', 'PLN_bench_' || p, 'Bench ' || p, 5000, 'NGN', 'monthly', 0, true, now() - interval '400 days', now() - interval '400 days'
       FROM unnest(ARRAY['many', 'few', 'none']) p`,
    [developerId],
  );
  await loadThenIndex(db, 'subscriptions', () =>
    chunked(
      db,
      `INSERT INTO subscriptions (id, developer_id, mode, public_id, plan_id, plan_public_id, customer_id, customer_reference, email, authorization_code,
                                  amount, currency, interval, status, billing_anchor_at, current_period_start, current_period_end, due_period, next_billing_at,
                                  failed_attempts, past_due_since, paused_at, cancelled_at, cancellation_reason, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'test', 'SUB_bench_' || g, pl.id, pl.public_id, c.id, c.reference, c.email, 'AUTH_bench_' || g,
              pl.amount, pl.currency, pl.interval, s.status, s.t, s.t + m.months * interval '1 month', s.t + (m.months + 1) * interval '1 month',
              CASE WHEN s.status = 'past_due' THEN m.months + 1 ELSE m.months + 2 END,
              CASE s.status WHEN 'active' THEN s.t + (m.months + 1) * interval '1 month' WHEN 'past_due' THEN now() + interval '1 day' END,
              CASE WHEN s.status = 'past_due' THEN 1 ELSE 0 END, CASE WHEN s.status = 'past_due' THEN s.t + m.months * interval '1 month' END,
              CASE WHEN s.status = 'paused' THEN s.t + m.months * interval '1 month' END, CASE WHEN s.status = 'cancelled' THEN s.t + m.months * interval '1 month' END,
              CASE WHEN s.status = 'cancelled' THEN 'requested' END, s.t, s.t + m.months * interval '1 month'
         FROM generate_series($3::int, $4::int) g
        CROSS JOIN LATERAL (
          SELECT now() - (g - 0.5) * ($2::float8 * interval '1 second') AS t,
                 CASE WHEN g % 100000 = 3 THEN 'paused' WHEN g % 20 = 19 THEN 'cancelled' WHEN g % 20 = 18 THEN 'past_due' ELSE 'active' END AS status) s
        CROSS JOIN LATERAL (SELECT (date_part('year', age(now(), s.t)) * 12 + date_part('month', age(now(), s.t)))::int AS months) m
         JOIN subscription_plans pl ON pl.developer_id = $1 AND pl.public_id = CASE WHEN g IN (21, 22, 23) THEN 'PLN_bench_few' ELSE 'PLN_bench_many' END
         JOIN customers c ON c.developer_id = $1 AND c.reference = CASE WHEN g % 1000 = 0 THEN 'CUS_bench_1' WHEN g IN (11, 12, 13) THEN 'CUS_bench_few' ELSE 'CUS_bench_' || g END`,
      [developerId, SPREAD_SECONDS],
    ),
  );
}

// Invoices due 30 days after they are made, customers as the payments': sent while not yet due,
// then paid, 5 % overdue; 2 % drafts; 1 in 100,000 partially paid; none cancelled.
const INVOICES_SQL = `
  INSERT INTO invoices (id, developer_id, mode, reference, customer_id, customer_reference, currency, due_date, line_items, total_amount, amount_paid,
                        status, link_token, sent_at, paid_at, overdue_at, created_at, updated_at)
  SELECT gen_random_uuid(), $1, 'test', 'INV_bench_' || g, c.id, c.reference, 'NGN', s.due,
         jsonb_build_array(jsonb_build_object('description', 'Services', 'quantity', '1', 'unitPrice', s.total::text, 'amount', s.total::text)), s.total,
         CASE s.status WHEN 'paid' THEN s.total WHEN 'partially_paid' THEN s.total / 2 ELSE 0 END, s.status,
         CASE WHEN s.status <> 'draft' THEN 'ilt_bench_' || g END, CASE WHEN s.status <> 'draft' THEN s.t END,
         CASE WHEN s.status = 'paid' THEN LEAST(s.t + interval '3 days', now()) END, CASE WHEN s.status = 'overdue' THEN s.due + interval '1 day' END,
         s.t, CASE s.status WHEN 'paid' THEN LEAST(s.t + interval '3 days', now()) WHEN 'overdue' THEN s.due + interval '1 day' ELSE s.t END
    FROM generate_series($3::int, $4::int) g
   CROSS JOIN LATERAL (SELECT now() - (g - 0.5) * ($2::float8 * interval '1 second') AS t, (100 + g % 9000)::numeric(20,2) AS total) t
   CROSS JOIN LATERAL (
     SELECT t.t, t.total, (t.t + interval '30 days')::date AS due,
            CASE WHEN g % 100000 = 3 THEN 'partially_paid' WHEN g % 50 = 1 THEN 'draft' WHEN (t.t + interval '30 days')::date >= current_date THEN 'sent'
                 WHEN g % 20 = 19 THEN 'overdue' ELSE 'paid' END AS status) s
    JOIN customers c ON c.developer_id = $1 AND c.reference = CASE WHEN g % 1000 = 0 THEN 'CUS_bench_1' WHEN g IN (11, 12, 13) THEN 'CUS_bench_few' ELSE 'CUS_bench_' || g END`;

// Live withdrawals to the account's bank account: requested by its owner, but every $5-th row a
// daily auto-settlement (one a day at most: settlements_auto_period); 90 % completed, 5 % failed,
// 5 % rejected (manual ones only), 1 in 100,000 processing, none pending approval or approved; NGN, 1 in 100,000 KES, no USD.
const SETTLEMENTS_SQL = `
  INSERT INTO settlements (developer_id, mode, reference, amount, currency, status, origin, bank_code, account_number, account_name, requested_by, requested_ip,
                           approvals_required, auto_period, provider_transfer_code, failure_reason, rejection_reason, created_at, approved_at, completed_at, updated_at)
  SELECT $1, 'live', 'stl_bench_' || lpad(g::text, 10, '0'), 10000 + g % 90000, CASE WHEN g % 100000 = 7 THEN 'KES' ELSE 'NGN' END, s.status,
         CASE WHEN s.auto THEN 'auto' ELSE 'manual' END, '058', '0123456789', 'BIG ACCOUNT LTD',
         CASE WHEN NOT s.auto THEN (SELECT user_id FROM memberships WHERE developer_id = $1 AND role = 'owner' LIMIT 1) END,
         CASE WHEN NOT s.auto THEN '203.0.113.7' END, 1, CASE WHEN s.auto THEN to_char(s.t AT TIME ZONE 'UTC', 'YYYY-MM-DD') END,
         CASE WHEN s.status <> 'rejected' THEN 'TRF_bench_' || g END, CASE WHEN s.status = 'failed' THEN 'Account name mismatch' END,
         CASE WHEN s.status = 'rejected' THEN 'Not expected' END, s.t, CASE WHEN s.status <> 'rejected' THEN s.t END,
         CASE WHEN s.status <> 'processing' THEN s.t END, s.t
    FROM generate_series($3::int, $4::int) g
   CROSS JOIN LATERAL (
     SELECT now() - g * ($2::float8 * interval '1 second') AS t, g % $5::int = 0 AS auto,
            CASE WHEN g % 100000 = 3 THEN 'processing' WHEN g % 20 = 19 THEN 'failed' WHEN g % 20 = 18 AND g % $5::int <> 0 THEN 'rejected' ELSE 'completed' END AS status) s`;

// Live bank accounts the merchant pays (NGN), added over the year.
const RECIPIENTS_SQL = `
  INSERT INTO transfer_recipients (developer_id, mode, recipient_code, account_name, account_number, bank_code, bank_name, currency, provider_recipient_code, created_at)
  SELECT $1, 'live', 'RCP_bench_' || g, 'Recipient ' || g, '1' || lpad(g::text, 9, '0'), '058', 'Bench Bank', 'NGN', 'RCP_provider_' || g,
         now() - g * ($2::float8 * interval '1 second')
    FROM generate_series($3::int, $4::int) g`;

async function keptAccount(db: Client, env: Record<string, string>): Promise<Account> {
  const [row] = (
    await db.query(
      `SELECT id AS developer_id FROM developers WHERE email = $1`,
      [EMAIL],
    )
  ).rows as Array<{ developer_id: string }>;
  const app = await createApiApp({ config: loadConfig(env), databaseUrl: env.DATABASE_URL, logger: false });
  try {
    const keys = app.get(ApiKeysService, { strict: false });
    const { secret } = await keys.issue({ developerId: row.developer_id, mode: 'test', kind: 'secret', scopes: SCOPES });
    const { secret: live } = await keys.issue({ developerId: row.developer_id, mode: 'live', kind: 'secret', scopes: SCOPES });
    return { developerId: row.developer_id, key: secret, liveKey: live };
  } finally {
    await app.close();
  }
}

/** The owner's portal session cookies (CSRF token first, then the password step). */
async function portalSignIn(baseUrl: string): Promise<Record<string, string>> {
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0];
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
  };
  const cookie = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const csrf = await fetch(`${baseUrl}/api/portal/auth/csrf`);
  keep(csrf);
  const token = ((await csrf.json()) as { data: { csrf_token: string } }).data.csrf_token;
  const login = await fetch(`${baseUrl}/api/portal/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie: cookie() },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`portal login: ${login.status} ${await login.text()}`);
  keep(login);
  return { cookie: cookie() };
}

/** `path` continued from the cursor DEEP_ROWS rows in (pages of 100). */
async function deepPath(baseUrl: string, path: string, headers: Record<string, string>, parameter = 'cursor'): Promise<string> {
  const join = path.includes('?') ? '&' : '?';
  let cursor: string | null = null;
  for (let read = 0; read < DEEP_ROWS; read += 100) {
    const body = await get(baseUrl, `${path}${join}limit=100${cursor ? `&${parameter}=${encodeURIComponent(cursor)}` : ''}`, headers);
    cursor = body.meta?.has_more === false ? null : (body.meta?.next_cursor ?? null);
    if (!cursor) throw new Error(`${path}: fewer than ${DEEP_ROWS} rows`);
  }
  return `${path}${join}${parameter}=${encodeURIComponent(cursor as string)}`;
}

async function measure(baseUrl: string, path: string, headers: Record<string, string>): Promise<{ median: number; p95: number; rows: number }> {
  const rows = (await get(baseUrl, path, headers)).data.length; // warm-up: plan caches and buffers
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await get(baseUrl, path, headers);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
  return { median: at(0.5), p95: at(0.95), rows };
}

async function get(baseUrl: string, path: string, headers: Record<string, string>): Promise<{ data: unknown[]; meta?: { next_cursor?: string | null; has_more?: boolean } }> {
  const response = await fetch(`${baseUrl}${path}`, { headers });
  const body = (await response.json()) as { data: unknown[]; meta?: { next_cursor?: string | null; has_more?: boolean } };
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function timed(label: string, run: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await run();
  log(`${label}: ${seconds(started)} s`);
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}

function log(message: string): void {
  console.log(`[bench:lists] ${message}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
