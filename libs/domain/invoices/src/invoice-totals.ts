import { MAX_INVOICE_LINE_ITEMS, MAX_LINE_DESCRIPTION_LENGTH, MAX_QUANTITY, MAX_QUANTITY_DECIMALS } from '@gateway/contracts';
import { Amount, type AmountLimits, type Currency, DomainError, InvalidAmountError } from '@gateway/platform';
import type { InvoiceLineItem } from './invoice.entity';

export interface LineItemInput {
  description: string;
  quantity: number;
  unit_price: number;
}

/** A plain non-negative decimal as JSON numbers print it (no exponent: 1e-7 and 1e21 are refused). */
const PLAIN_QUANTITY = /^\d+(?:\.(\d+))?$/;

/**
 * The invoice total, exactly (docs/invoices.md "Totals"): each line's amount is quantity ×
 * unit_price in exact decimal arithmetic, rounded half-up to the cent (2.5 × 33.33 = 83.325 →
 * 83.33); the total is the sum of those line amounts, so it always equals what the customer sees
 * line by line. Quantities have at most 4 decimals, unit prices at most 2; a line that rounds to
 * 0.00 is refused, and the total must lie within the currency's payment limits, because it is
 * paid through a hosted checkout.
 * Every problem is reported at once, by field (`line_items.2.quantity`).
 * @throws validation_error
 */
export function priceLineItems(items: readonly LineItemInput[], currency: Currency, limits: AmountLimits): { lineItems: InvoiceLineItem[]; total: Amount } {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (items.length < 1) add('line_items', 'line_items must have at least 1 item');
  if (items.length > MAX_INVOICE_LINE_ITEMS) add('line_items', `line_items must have at most ${MAX_INVOICE_LINE_ITEMS} items`);

  const lineItems: InvoiceLineItem[] = [];
  items.forEach((item, i) => {
    const at = `line_items.${i}`;
    const description = typeof item.description === 'string' ? item.description.trim() : '';
    if (!description) add(`${at}.description`, 'description must not be empty');
    else if (description.length > MAX_LINE_DESCRIPTION_LENGTH) add(`${at}.description`, `description must be at most ${MAX_LINE_DESCRIPTION_LENGTH} characters`);
    const quantity = readQuantity(item.quantity);
    if (typeof quantity !== 'string') add(`${at}.quantity`, quantity.problem);
    const unitPrice = readUnitPrice(item.unit_price, limits);
    if (!(unitPrice instanceof Amount)) add(`${at}.unit_price`, unitPrice.problem);
    if (typeof quantity !== 'string' || !(unitPrice instanceof Amount) || !description) return;
    const amount = unitPrice.multiply(quantity, 'half-up');
    if (!amount.isPositive()) {
      add(at, `quantity × unit_price is ${amount.toString()} once rounded to the cent; a line must come to at least 0.01`);
      return;
    }
    lineItems.push({ description, quantity, unitPrice: unitPrice.toString(), amount: amount.toString() });
  });

  const total = Amount.sum(lineItems.map((line) => Amount.parse(line.amount)));
  if (Object.keys(errors).length === 0) {
    const minimum = limits.minimumByCurrency[currency];
    if (total.lt(minimum)) add('line_items', `the total ${total.toString()} must be at least ${minimum.toString()} ${currency} (the smallest payment in ${currency})`);
    if (total.gt(limits.max)) add('line_items', `the total ${total.toString()} must be at most ${limits.max.toString()} ${currency}`);
  }
  if (Object.keys(errors).length > 0) throw new DomainError('validation_error', 'The invoice is not valid.', errors);
  return { lineItems, total };
}

/** The quantity as an exact decimal string ("2.5"), or why it is refused. */
function readQuantity(input: unknown): string | { problem: string } {
  if (typeof input !== 'number' || !Number.isFinite(input)) return { problem: 'quantity must be a number' };
  // A JS number read through its shortest round-trip text: 2.5 is exactly "2.5", never 2.4999….
  const text = String(input);
  const match = PLAIN_QUANTITY.exec(text);
  if (input <= 0) return { problem: 'quantity must be greater than 0' };
  if (input > MAX_QUANTITY) return { problem: `quantity must be at most ${MAX_QUANTITY}` };
  if (!match || (match[1]?.length ?? 0) > MAX_QUANTITY_DECIMALS) return { problem: `quantity must have at most ${MAX_QUANTITY_DECIMALS} decimal places` };
  return text;
}

function readUnitPrice(input: unknown, limits: AmountLimits): Amount | { problem: string } {
  let amount: Amount;
  try {
    amount = Amount.parse(input);
  } catch (error) {
    if (error instanceof InvalidAmountError) return { problem: `unit_price ${error.message.replace(/^amount /, '')}` };
    throw error;
  }
  if (!amount.isPositive()) return { problem: 'unit_price must be greater than 0' };
  if (amount.gt(limits.max)) return { problem: `unit_price must be at most ${limits.max.toString()}` };
  return amount;
}
