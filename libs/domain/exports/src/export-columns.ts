import type { ExportType } from '@gateway/contracts';
import { Amount } from '@gateway/platform';

/**
 * How a value is written in a cell:
 * - `money`: exact decimal text with two places ("1234.50"), from the wire number through
 *   Amount.parse (which reads a number through its shortest round-trip text, exact for every
 *   amount the API can show) — never float arithmetic or toFixed;
 * - `time`: ISO 8601 UTC as the API shows it ("2026-11-26T10:00:00.000Z");
 * - `json`: free-form or repeated fields (metadata, splits, line items) as compact JSON;
 * - `text`, `number`, `boolean`: as they are.
 * null and absent values are empty cells.
 */
export type CellKind = 'text' | 'money' | 'number' | 'boolean' | 'time' | 'json';

export interface ExportColumn {
  /** The CSV header: the wire field, nested objects flattened as dotted names (`fees.platform`). */
  name: string;
  kind: CellKind;
}

const text = (name: string): ExportColumn => ({ name, kind: 'text' });
const money = (name: string): ExportColumn => ({ name, kind: 'money' });
const time = (name: string): ExportColumn => ({ name, kind: 'time' });
const json = (name: string): ExportColumn => ({ name, kind: 'json' });
const boolean = (name: string): ExportColumn => ({ name, kind: 'boolean' });

/** Every export type's columns: the fields of that object's list response, in the response's order. */
export const EXPORT_COLUMNS: Record<ExportType, readonly ExportColumn[]> = {
  payments: [
    text('reference'),
    text('status'),
    money('amount'),
    text('currency'),
    money('net_amount'),
    money('fees.platform'),
    money('fees.provider'),
    money('amount_refunded'),
    text('email'),
    text('customer_reference'),
    text('authorization_url'),
    text('callback_url'),
    json('metadata'),
    json('splits'),
    text('authorization.authorization_code'),
    boolean('authorization.reusable'),
    text('authorization.brand'),
    text('authorization.last4'),
    text('authorization.exp_month'),
    text('authorization.exp_year'),
    text('authorization.bank'),
    text('gateway_response'),
    text('channel'),
    time('charge_at'),
    time('paid_at'),
    time('created_at'),
  ],
  refunds: [text('reference'), text('payment_reference'), money('amount'), text('currency'), text('reason'), text('status'), time('created_at'), time('processed_at')],
  ledger: [text('id'), text('type'), money('amount'), text('direction'), text('balance_type'), text('currency'), text('reference'), text('description'), time('created_at')],
  customers: [text('reference'), text('email'), text('name'), text('phone'), json('metadata'), time('created_at')],
  transfers: [
    text('reference'),
    text('status'),
    money('amount'),
    text('currency'),
    text('source'),
    text('recipient.recipient_code'),
    text('recipient.account_name'),
    text('recipient.account_number_last4'),
    text('recipient.bank_code'),
    text('recipient.bank_name'),
    text('recipient.currency'),
    time('recipient.created_at'),
    text('reason'),
    text('failure_reason'),
    time('created_at'),
    time('completed_at'),
  ],
  settlements: [
    text('reference'),
    text('status'),
    money('amount'),
    text('currency'),
    text('origin'),
    text('bank_account.bank_code'),
    text('bank_account.account_name'),
    text('bank_account.account_number_last4'),
    time('created_at'),
    time('approved_at'),
    time('completed_at'),
    text('failure_reason'),
    text('rejection_reason'),
  ],
  disputes: [
    text('reference'),
    text('payment_reference'),
    money('amount'),
    money('amount_held'),
    text('currency'),
    text('reason'),
    text('status'),
    text('evidence.customer_email'),
    text('evidence.customer_name'),
    text('evidence.customer_phone'),
    text('evidence.service_details'),
    text('evidence.service_date'),
    text('evidence.delivery_date'),
    text('evidence.delivery_address'),
    text('evidence.explanation'),
    json('evidence.file_urls'),
    time('evidence_due_at'),
    time('submitted_at'),
    time('resolved_at'),
    time('created_at'),
  ],
  invoices: [
    text('reference'),
    text('customer_reference'),
    text('due_date'),
    text('currency'),
    json('line_items'),
    money('total_amount'),
    money('amount_paid'),
    money('amount_due'),
    text('status'),
    text('payment_link'),
    time('sent_at'),
    time('paid_at'),
    time('overdue_at'),
    time('cancelled_at'),
    time('created_at'),
    time('updated_at'),
  ],
};

/** Spreadsheet formula triggers (OWASP "CSV injection"): a text cell starting with one is prefixed with `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV row's cells for a wire object, in `columns` order. */
export function toCsvCells(row: object, columns: readonly ExportColumn[]): string[] {
  return columns.map((column) => cell(valueAt(row, column.name), column));
}

function valueAt(row: object, path: string): unknown {
  let value: unknown = row;
  for (const part of path.split('.')) {
    if (value === null || value === undefined || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function cell(value: unknown, column: ExportColumn): string {
  if (value === null || value === undefined) return '';
  switch (column.kind) {
    case 'money':
      return Amount.parse(value).toString();
    case 'time':
    case 'number':
    case 'boolean':
      return String(value);
    case 'json':
      return neutralised(JSON.stringify(value));
    case 'text':
      return neutralised(typeof value === 'string' ? value : JSON.stringify(value));
  }
}

/**
 * Text a spreadsheet would run as a formula (`=HYPERLINK(…)`, `+1+cmd|…`, `@SUM(…)`, `-2+3`) is
 * made inert by a leading single quote, as OWASP recommends; quoting itself is the CSV writer's.
 * Only free text is touched: amounts, numbers and times are the gateway's own and never start so
 * except a negative amount, which must stay a number.
 */
function neutralised(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}
