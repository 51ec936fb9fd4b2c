import { formatMoney } from '../money';
import type { Domain } from '../state/accounts';
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

export interface CheckoutPageInput {
  transaction: TransactionRecord;
  mode: Domain;
  cards: readonly TestCard[];
  /** Shown above the form, e.g. the previous attempt's decline. */
  error?: string;
  payAction: string;
}

function summary(transaction: TransactionRecord, heading: string): string {
  return `
<h1>${escapeHtml(heading)}</h1>
<p class="amount" id="amount">${escapeHtml(formatMoney(transaction.amount, transaction.currency))}</p>
<dl>
  <dt>Currency</dt><dd>${escapeHtml(transaction.currency)}</dd>
  <dt>Email</dt><dd>${escapeHtml(transaction.email)}</dd>
  <dt>Reference</dt><dd>${escapeHtml(transaction.reference)}</dd>
</dl>`;
}

export function renderCheckoutPage({ transaction, mode, cards, error, payAction }: CheckoutPageInput): string {
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
${summary(transaction, 'Amount to pay')}
<form id="checkout-form" method="post" action="${escapeHtml(payAction)}">
  <fieldset>
    <legend>Choose a test card</legend>
    ${options}
  </fieldset>
  <button type="submit" id="pay-button">Pay ${escapeHtml(formatMoney(transaction.amount, transaction.currency))}</button>
</form>
</div>`;
  return renderLayout({ title: `Pay ${formatMoney(transaction.amount, transaction.currency)}`, mode, body });
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
