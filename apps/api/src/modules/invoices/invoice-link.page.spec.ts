import 'reflect-metadata';
import type { Invoice, InvoiceLinkView } from '@gateway/domain/invoices';
import { Amount } from '@gateway/platform';
import { pageSecurityHeaders, renderClosedPage, renderInvoicePage } from './invoice-link.page';

function view(patch: Partial<Invoice> = {}, merchantName = 'Ada & Co <Ltd>'): InvoiceLinkView {
  const invoice = {
    reference: 'INV_0123456789abcdef0123',
    currency: 'NGN',
    dueDate: '2026-12-31',
    status: 'partially_paid',
    lineItems: [{ description: '<img src=x onerror=alert(1)> "Design"', quantity: '2.5', unitPrice: '33.33', amount: '83.33' }],
    totalAmount: Amount.parse('1083.33'),
    amountPaid: Amount.parse('83.33'),
    ...patch,
  } as Invoice;
  return { invoice, merchantName };
}

describe('invoice payment page', () => {
  it('escapes the merchant name and every description, and shows total, paid and due', () => {
    const page = renderInvoicePage(view(), 'tok/pay', 'n0nce');
    expect(page).toContain('Invoice from Ada &amp; Co &lt;Ltd&gt;');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;Design&quot;');
    expect(page).not.toMatch(/<img/);
    expect(page).toMatch(/id="total">1,083\.33 NGN/);
    expect(page).toMatch(/id="paid">83\.33 NGN/);
    expect(page).toMatch(/id="due">1,000\.00 NGN/);
    expect(page).toContain('<form method="get" action="tok/pay">');
    expect(page).toContain('value="1000.00"');
    expect(page).toContain('<style nonce="n0nce">');
  });

  it('shows a refusal and no form once paid', () => {
    expect(renderInvoicePage(view(), 'tok/pay', 'n', 'amount must be at most 1000.00')).toContain('<p class="error" role="alert">amount must be at most 1000.00</p>');
    const paid = renderInvoicePage(view({ status: 'paid', amountPaid: Amount.parse('1083.33') }), 'tok/pay', 'n');
    expect(paid).toContain('paid in full');
    expect(paid).not.toContain('<form');
  });

  it('a closed link says so; headers forbid caching, scripts, framing and the referrer', () => {
    expect(renderClosedPage('n')).toContain('Invoice unavailable');
    expect(pageSecurityHeaders('abc')).toMatchObject({
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'nonce-abc'; img-src 'none'; base-uri 'none'; frame-ancestors 'none'",
      'referrer-policy': 'no-referrer',
    });
  });
});
