import { storableBody } from '@gateway/domain/request-logs';

/**
 * The request log's body preparation (`storableBody`: parse, check, redact), which runs for the
 * request and the response of every logged request: microseconds a call for the bodies of the hot
 * paths. A paid payment's response carries its saved card, whose `authorization_code` is redacted,
 * so that body is rewritten every time; a pending one is stored as it came.
 *
 *   npm run bench:request-log-bodies
 */
const RUNS = 5;
const CALLS = Number(process.env.BENCH_CALLS ?? 100_000);

const paidPayment = {
  reference: 'PAY_8f3a9b2c4d5e6f70',
  status: 'success',
  amount: 15000.5,
  currency: 'NGN',
  net_amount: 14775.49,
  fees: { platform: 150, provider: 75.01 },
  amount_refunded: 0,
  email: 'customer-1234@example.com',
  customer_reference: 'CUS_0123456789abcdef',
  authorization_url: null,
  callback_url: 'https://merchant.example.com/callback',
  metadata: { order_id: 'ORD-1234567', cart: ['a', 'b'] },
  splits: [],
  authorization: { authorization_code: 'AUTH_abcdef123456', reusable: true, brand: 'visa', last4: '4081', exp_month: '12', exp_year: '2030', bank: 'Test Bank' },
  gateway_response: 'Approved',
  channel: 'card',
  charge_at: null,
  paid_at: '2026-12-03T10:00:00.000Z',
  created_at: '2026-12-03T09:59:00.000Z',
};

const BODIES: Record<string, string> = {
  'GET payment, paid (saved card redacted)': JSON.stringify({ success: true, data: paidPayment }),
  'GET payment, pending (nothing to redact)': JSON.stringify({ success: true, data: { ...paidPayment, status: 'pending', authorization: null, paid_at: null } }),
  'initialize request': JSON.stringify({ email: 'customer-1234@example.com', amount: 15000.5, currency: 'NGN', metadata: { order_id: 'ORD-1234567' } }),
  'customer with a note holding a card number': JSON.stringify({ email: 'a@example.com', metadata: { note: 'call back\n4084084084084081' } }),
};

function main(): void {
  console.log(`storableBody, ${CALLS.toLocaleString('en')} calls a run, best and median of ${RUNS} runs, Node ${process.version}\n`);
  console.log('| body | bytes | µs a call (best) | µs a call (median) |');
  console.log('|---|---:|---:|---:|');
  for (const [name, body] of Object.entries(BODIES)) {
    for (let i = 0; i < CALLS / 5; i++) storableBody(body); // warm-up: optimized code and the key verdicts
    const runs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < CALLS; i++) storableBody(body);
      runs.push(Number(process.hrtime.bigint() - started) / 1000 / CALLS);
    }
    runs.sort((a, b) => a - b);
    console.log(`| ${name} | ${Buffer.byteLength(body)} | ${runs[0].toFixed(2)} | ${runs[Math.floor(RUNS / 2)].toFixed(2)} |`);
  }
}

main();
