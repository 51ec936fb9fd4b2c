import { createHmac, timingSafeEqual } from 'node:crypto';
import { MODES, type Mode } from '@gateway/contracts';
import type { ProviderAccountConfig } from '@gateway/platform';
import type { ProviderWebhook } from '../provider.types';
import { toProviderDispute, toProviderHold, toProviderRefundNotice, toProviderTransaction, toProviderTransfer } from './paystack.mapper';

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
/** The simulator's event for an authorize-only checkout the customer authorized (Paystack sends none). */
const HOLD_EVENTS = new Set(['preauthorization.authorized']);

/**
 * A verified body → the typed event. Never throws and never refuses an authentic body: an event the
 * gateway does not act on, or one whose payload it cannot read (not JSON, no `data`, a field of an
 * unexpected type), is `kind: 'other'` — with the `problem` when it could not be read — so the
 * caller acknowledges and logs it instead of answering an error the provider would retry forever.
 */
export function parseVerifiedWebhook(mode: Mode, rawBody: Buffer): ProviderWebhook {
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return unreadable(mode, '', 'the body is not JSON');
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return unreadable(mode, '', 'the body is not an {event, data} object');
  const { event, data } = payload as { event?: unknown; data?: unknown };
  if (typeof event !== 'string' || event === '') return unreadable(mode, '', 'the body names no event');
  try {
    if (CHARGE_EVENTS.has(event)) return { mode, event, kind: 'charge', data: toProviderTransaction(data) };
    if (REFUND_EVENTS.has(event)) return { mode, event, kind: 'refund', data: toProviderRefundNotice(data) };
    if (TRANSFER_EVENTS.has(event)) return { mode, event, kind: 'transfer', data: toProviderTransfer(data) };
    if (DISPUTE_EVENTS.has(event)) return { mode, event, kind: 'dispute', data: toProviderDispute(data) };
    if (HOLD_EVENTS.has(event)) return { mode, event, kind: 'hold', data: toProviderHold(data) };
  } catch (error) {
    return unreadable(mode, event, error instanceof Error ? error.message : String(error));
  }
  return { mode, event, kind: 'other', data: null };
}

function unreadable(mode: Mode, event: string, problem: string): ProviderWebhook {
  return { mode, event, kind: 'other', data: null, problem };
}
