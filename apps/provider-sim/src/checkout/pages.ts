import { formatMoney } from '../money';
import type { Domain } from '../state/accounts';
import type { HoldRecord } from '../state/holds';
import type { TransactionRecord } from '../state/transactions';
import type { TestCard } from '../test-cards';
import { escapeHtml, renderLayout } from './html';

/**
 * Stable hooks for browser tests (documented in docs/provider-simulator.md):
 * - each card is a radio input name="card", id="card-<number>", value="<number>";
 * - the submit button is id="pay-button";
 * - the form is id="checkout-form".
 */
export const CARD_INPUT_NAME = 'card';
export const cardInputId = (card: TestCard) => `card-${card.number}`;

/** What the page shows: a checkout transaction, or an authorize-only checkout's hold. */
type Summary = Pick<TransactionRecord, 'amount' | 'currency' | 'email' | 'reference'>;

export interface CheckoutPageInput {
  transaction: Summary;
  mode: Domain;
  cards: readonly TestCard[];
  /** Shown above the form, e.g. the previous attempt's decline. */
  error?: string;
  payAction: string;
  /** `authorize`: the authorize-only checkout — a hold is placed, nothing is charged. Same form hooks. */
  purpose?: 'pay' | 'authorize';
}

function summary(transaction: Summary, heading: string): string {
  return `
<h1>${escapeHtml(heading)}</h1>
<p class="amount" id="amount">${escapeHtml(formatMoney(transaction.amount, transaction.currency))}</p>
<dl>
  <dt>Currency</dt><dd>${escapeHtml(transaction.currency)}</dd>
  <dt>Email</dt><dd>${escapeHtml(transaction.email)}</dd>
  <dt>Reference</dt><dd>${escapeHtml(transaction.reference)}</dd>
</dl>`;
}

export function renderCheckoutPage({ transaction, mode, cards, error, payAction, purpose = 'pay' }: CheckoutPageInput): string {
  const verb = purpose === 'authorize' ? 'Authorize' : 'Pay';
  const price = formatMoney(transaction.amount, transaction.currency);
  const options = cards
    .map((card, index) => {
      const id = cardInputId(card);
      return `
  <div class="option">
    <input type="radio" name="${CARD_INPUT_NAME}" id="${escapeHtml(id)}" value="${escapeHtml(card.number)}"${index === 0 ? ' checked' : ''}>
    <label for="${escapeHtml(id)}">
      <span class="name">${escapeHtml(card.label)}</span>
      <span class="number">${escapeHtml(card.number.replace(/(\d{4})(?=\d)/g, '$1 '))} · ${escapeHtml(card.expMonth)}/${escapeHtml(card.expYear.slice(-2))} · CVV ${escapeHtml(card.cvv)}</span>
      <span class="behaviour">${escapeHtml(card.description)}</span>
    </label>
  </div>`;
    })
    .join('');
  const notice = error ? `<p class="notice error" role="alert">${escapeHtml(error)}</p>` : '';
  const body = `
<div class="content">
${notice}
${summary(transaction, purpose === 'authorize' ? 'Amount to authorize' : 'Amount to pay')}
${purpose === 'authorize' ? '<p id="hold-notice">The amount is held on your card, not charged; the merchant captures it later or releases it.</p>' : ''}
<form id="checkout-form" method="post" action="${escapeHtml(payAction)}">
  <fieldset>
    <legend>Choose a test card</legend>
    ${options}
  </fieldset>
  <button type="submit" id="pay-button">${verb} ${escapeHtml(price)}</button>
</form>
</div>`;
  return renderLayout({ title: `${verb} ${price}`, mode, body });
}

export interface ResultPageInput {
  transaction: TransactionRecord;
  mode: Domain;
  /** Link back to the checkout form after a failure. */
  retryUrl?: string;
}

/** Shown after paying when the merchant gave no callback_url, or when a paid checkout is opened again. */
export function renderResultPage({ transaction, mode, retryUrl }: ResultPageInput): string {
  const paid = transaction.status === 'success';
  const headline = paid
    ? `<p class="notice success" role="status" id="payment-result" data-status="success">Payment successful</p>`
    : `<p class="notice error" role="alert" id="payment-result" data-status="${escapeHtml(transaction.status)}">Payment failed: ${escapeHtml(transaction.gatewayResponse ?? 'not completed')}</p>`;
  const retry = !paid && retryUrl ? `<a class="button" id="retry-link" href="${escapeHtml(retryUrl)}">Try another card</a>` : '';
  const back = transaction.callbackUrl
    ? `<a class="button${retry ? ' secondary' : ''}" id="return-link" href="${escapeHtml(callbackRedirectUrl(transaction))}">Return to merchant</a>`
    : '';
  const body = `
<div class="content">
${headline}
${summary(transaction, paid ? 'Amount paid' : 'Amount')}
${retry}
${back}
</div>`;
  return renderLayout({ title: paid ? 'Payment successful' : 'Payment failed', mode, body });
}

/** After an authorize-only checkout: authorized (id="payment-result" data-status="authorized"), or why not. */
export function renderHoldResultPage({ hold, mode, retryUrl }: { hold: HoldRecord; mode: Domain; retryUrl: string }): string {
  const authorized = hold.status === 'authorized' || hold.status === 'captured';
  const headline = authorized
    ? `<p class="notice success" role="status" id="payment-result" data-status="authorized">Authorization successful</p>`
    : `<p class="notice error" role="alert" id="payment-result" data-status="${escapeHtml(hold.status)}">Authorization failed: ${escapeHtml(hold.gatewayResponse)}</p>`;
  const retry = hold.status === 'pending' ? `<a class="button" id="retry-link" href="${escapeHtml(retryUrl)}">Try another card</a>` : '';
  const body = `
<div class="content">
${headline}
${summary(hold, authorized ? 'Amount authorized' : 'Amount')}
${retry}
</div>`;
  return renderLayout({ title: authorized ? 'Authorization successful' : 'Authorization failed', mode, body });
}

export function renderNotFoundPage(): string {
  return renderLayout({
    title: 'Checkout not found',
    mode: 'test',
    body: `<div class="content"><p class="notice error" role="alert">This checkout link is invalid or has expired.</p></div>`,
  });
}

/** The merchant's callback_url with Paystack's `reference` and `trxref` query parameters added. */
export function callbackRedirectUrl(transaction: TransactionRecord): string {
  if (!transaction.callbackUrl) throw new Error('transaction has no callback_url');
  const url = new URL(transaction.callbackUrl);
  url.searchParams.set('trxref', transaction.reference);
  url.searchParams.set('reference', transaction.reference);
  return url.toString();
}
