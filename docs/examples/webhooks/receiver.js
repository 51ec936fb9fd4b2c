// A webhook receiver for the gateway: Node 18+, no dependencies.
//
//   WEBHOOK_SECRET=whsec_… PORT=4242 node receiver.js
//
// It verifies `X-Gateway-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]` over the RAW body
// (HMAC-SHA256 of `<t>.<raw body>` with the endpoint's secret), refuses timestamps more than
// 300 s away from now, compares digests in constant time, answers 403 on any mismatch and drops
// an event id it has already processed (deliveries are at least once: the same event may arrive
// again, always with the same id).
'use strict';
const http = require('node:http');
const crypto = require('node:crypto');

const SECRET = process.env.WEBHOOK_SECRET;
const PORT = Number(process.env.PORT ?? 4242);
const TOLERANCE_SECONDS = 300;
if (!SECRET) {
  console.error('Set WEBHOOK_SECRET to the endpoint secret (whsec_…) the gateway showed when you created it.');
  process.exit(1);
}

/** Event ids already handled. Keep these in your database in production (a unique column). */
const seen = new Set();

/** True when one of the header's v1 signatures matches the raw body and the timestamp is fresh. */
function verify(header, rawBody, secret, nowSeconds = Math.floor(Date.now() / 1000)) {
  if (typeof header !== 'string') return false;
  const pairs = header.split(',').map((part) => {
    const at = part.indexOf('=');
    return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
  });
  const t = pairs.find(([key]) => key === 't')?.[1] ?? '';
  if (!/^\d+$/.test(t)) return false; // unix seconds, digits only
  const timestamp = Number(t);
  if (Math.abs(nowSeconds - timestamp) > TOLERANCE_SECONDS) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  // During a secret rotation the header carries two v1= values (new and previous secret): any may match.
  return pairs
    .filter(([key]) => key === 'v1')
    .some(([, hex]) => {
      const given = Buffer.from(hex, 'hex');
      return given.length === expected.length && crypto.timingSafeEqual(given, expected);
    });
}

function handle(event) {
  // Your business logic: fulfil the order, update the customer, … Keep it quick, or queue it:
  // the gateway waits at most 10 s for the answer.
  console.log(`accepted ${event.id} ${event.event}`);
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST') return res.writeHead(405).end();
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const rawBody = Buffer.concat(chunks); // verify these exact bytes, before any JSON parsing
    if (!verify(req.headers['x-gateway-signature'], rawBody, SECRET)) {
      console.log(`rejected ${req.headers['x-gateway-event-id'] ?? '(no event id)'}: bad signature or stale timestamp`);
      return res.writeHead(403, { 'content-type': 'text/plain' }).end('invalid signature');
    }
    const event = JSON.parse(rawBody.toString('utf8'));
    if (seen.has(event.id)) {
      console.log(`duplicate ${event.id} ignored`);
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('duplicate');
    }
    seen.add(event.id);
    handle(event);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});

server.listen(PORT, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}/`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('SIGINT', () => server.close(() => process.exit(0)));
