import { createHmac, timingSafeEqual } from 'node:crypto';
import { MODES, type Mode } from '@gateway/contracts';
import type { ProviderAccountConfig } from '@gateway/platform';
import type { ProviderWebhook } from '../provider.types';
import { toProviderDispute, toProviderRefund, toProviderTransaction, toProviderTransfer } from './paystack.mapper';

/**
 * Which mode's secret signed the body: `x-paystack-signature` is the lowercase hex HMAC-SHA512 of
 * the exact raw bytes, keyed with the secret of the account the event belongs to. Every mode's
 * digest is compared in constant time, so timing tells nothing about either secret.
 */
export function signingMode(
  accounts: Readonly<Record<Mode, ProviderAccountConfig>>,
  rawBody: Buffer,
  signatureHeader: string | undefined,
): Mode | null {
  if (typeof signatureHeader !== 'string' || !/^[0-9a-fA-F]{128}$/.test(signatureHeader.trim())) return null;
  const given = Buffer.from(signatureHeader.trim().toLowerCase(), 'hex');
  let matched: Mode | null = null;
  for (const mode of MODES) {
    const expected = createHmac('sha512', accounts[mode].secretKey).update(rawBody).digest();
    if (timingSafeEqual(given, expected) && matched === null) matched = mode;
  }
  return matched;
}

const CHARGE_EVENTS = new Set(['charge.success']);
const REFUND_EVENTS = new Set(['refund.pending', 'refund.processing', 'refund.processed', 'refund.failed', 'refund.needs-attention']);
const TRANSFER_EVENTS = new Set(['transfer.success', 'transfer.failed', 'transfer.reversed']);
const DISPUTE_EVENTS = new Set(['charge.dispute.create', 'charge.dispute.remind', 'charge.dispute.resolve']);

/** A verified body → the typed event. Null when the body is not a `{event, data}` JSON object. */
export function parseVerifiedWebhook(mode: Mode, rawBody: Buffer): ProviderWebhook | null {
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return null;
  }
  if (payload === null || typeof payload !== 'object') return null;
  const { event, data } = payload as { event?: unknown; data?: unknown };
  if (typeof event !== 'string' || event === '') return null;
  if (CHARGE_EVENTS.has(event)) return { mode, event, kind: 'charge', data: toProviderTransaction(data) };
  if (REFUND_EVENTS.has(event)) return { mode, event, kind: 'refund', data: toProviderRefund(data) };
  if (TRANSFER_EVENTS.has(event)) return { mode, event, kind: 'transfer', data: toProviderTransfer(data) };
  if (DISPUTE_EVENTS.has(event)) return { mode, event, kind: 'dispute', data: toProviderDispute(data) };
  return { mode, event, kind: 'other', data: null };
}
