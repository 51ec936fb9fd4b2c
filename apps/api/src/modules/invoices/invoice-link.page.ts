import { amountDue, type InvoiceLinkView } from '@gateway/domain/invoices';
import { html, SafeHtml } from './html-escape';

/** Strict: no script at all, styles only with this response's nonce, no framing, no base tag, no referrer (the link's token is in the URL). */
export function pageSecurityHeaders(nonce: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // form-action is not restricted: the pay form's answer redirects to the provider's hosted
    // checkout, whose origin depends on the provider, and browsers apply form-action to redirects.
    'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
table{width:100%;border-collapse:collapse}th,td{padding:.4rem;border-bottom:1px solid #ddd;text-align:left}
td.n,th.n{text-align:right}dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}.error{color:#a40000}
button{padding:.5rem 1rem}input{padding:.4rem;width:10rem}`;

function layout(nonce: string, title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">
<title>${title}</title><style nonce="${nonce}">${new SafeHtml(STYLE)}</style></head>
<body>${body}</body></html>`.html;
}

/** 2 decimals and the currency: "1,000.10 NGN". */
function money(amount: number, currency: string): string {
  return `${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
}

/** The invoice and, while something is due, the form that starts a checkout (all or part of it). */
export function renderInvoicePage(view: InvoiceLinkView, payPath: string, nonce: string, error?: string): string {
  const { invoice, merchantName } = view;
  const due = amountDue(invoice);
  const rows = invoice.lineItems.map(
    (line) => html`<tr><td>${line.description}</td><td class="n">${line.quantity}</td><td class="n">${money(Number(line.unitPrice), invoice.currency)}</td><td class="n">${money(Number(line.amount), invoice.currency)}</td></tr>`,
  );
  const payable = due.isPositive() && invoice.status !== 'paid';
  const form = payable
    ? html`<form method="get" action="${payPath}">
<label for="amount">Amount to pay (${invoice.currency})</label>
<input id="amount" name="amount" inputmode="decimal" value="${due.toString()}" required>
<button type="submit">Pay</button></form>`
    : html`<p>This invoice is paid in full. Thank you.</p>`;
  const body = html`<h1>Invoice from ${merchantName}</h1>
<p>Reference ${invoice.reference}</p>
${error ? html`<p class="error" role="alert">${error}</p>` : html``}
<table><thead><tr><th>Item</th><th class="n">Quantity</th><th class="n">Unit price</th><th class="n">Amount</th></tr></thead><tbody>${rows}</tbody></table>
<dl><dt>Total</dt><dd id="total">${money(invoice.totalAmount.toNumber(), invoice.currency)}</dd>
<dt>Paid</dt><dd id="paid">${money(invoice.amountPaid.toNumber(), invoice.currency)}</dd>
<dt>Due</dt><dd id="due">${money(due.toNumber(), invoice.currency)}</dd>
<dt>Due date</dt><dd>${invoice.dueDate}</dd>
<dt>Status</dt><dd id="status">${invoice.status.replace('_', ' ')}</dd></dl>
${form}`;
  return layout(nonce, `Invoice ${invoice.reference}`, body);
}

/** An unknown, draft or cancelled invoice's link. */
export function renderClosedPage(nonce: string): string {
  return layout(nonce, 'Invoice unavailable', html`<h1>Invoice unavailable</h1><p>This payment link is not open: the invoice was cancelled, or the link does not exist.</p>`);
}
