import { Gateway, constructEvent } from '@gateway/sdk';

const gateway = new Gateway({ secretKey: process.env.GATEWAY_SECRET_KEY ?? '', baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000' });

// Start a payment, then send your customer to its authorization_url.
export const checkout = (email: string) => gateway.post('/payments/initialize', { body: { amount: 5000, email } });

// Every payment, newest first, page after page.
export async function printPayments() {
  for await (const payment of gateway.list('/payments')) console.log(payment.reference, payment.status, payment.amount);
}

// Your webhook route: the raw body and the headers as received; throws WebhookSignatureError unless genuine.
export const onWebhook = (rawBody: string, headers: Headers) => constructEvent(rawBody, headers, process.env.WEBHOOK_SECRET ?? '');
