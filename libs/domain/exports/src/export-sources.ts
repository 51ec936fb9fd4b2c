import { Injectable } from '@nestjs/common';
import { DISPUTE_STATUSES, type ExportType, INVOICE_STATUSES, PAYMENT_STATUSES, REFUND_STATUSES, SETTLEMENT_STATUSES, TRANSFER_STATUSES } from '@gateway/contracts';
import { CustomersService } from '@gateway/domain/customers';
import { DisputesService } from '@gateway/domain/disputes';
import { InvoicesService } from '@gateway/domain/invoices';
import { LedgerService } from '@gateway/domain/ledger';
import { PaymentsService } from '@gateway/domain/payments';
import { RefundsService } from '@gateway/domain/refunds';
import { SettlementsService } from '@gateway/domain/settlements';
import { TransfersService } from '@gateway/domain/transfers';
import type { Currency, DeveloperContext } from '@gateway/platform';

/** What one export reads: created in [from, to), and the optional filters its type supports. */
export interface ExportRange {
  from: Date;
  to: Date;
  currency?: Currency;
  status?: string;
}

/**
 * One export type's rows, read through the owning module's own service (no module reads another's
 * tables): `rows` is that module's list in the list's order and wire form, `count` its size.
 */
export interface ExportSource {
  /** The statuses a `status` filter may name; absent: the type takes no status filter. */
  statuses?: readonly string[];
  /** Whether the type takes a `currency` filter. */
  currency: boolean;
  count(ctx: DeveloperContext, range: ExportRange): Promise<number>;
  rows(ctx: DeveloperContext, range: ExportRange): AsyncIterable<object>;
}

/** Each export type's source. The `status` strings were checked against `statuses` by ExportsService. */
@Injectable()
export class ExportSources {
  private readonly sources: Record<ExportType, ExportSource>;

  constructor(
    payments: PaymentsService,
    refunds: RefundsService,
    ledger: LedgerService,
    customers: CustomersService,
    transfers: TransfersService,
    settlements: SettlementsService,
    disputes: DisputesService,
    invoices: InvoicesService,
  ) {
    type Of<L extends readonly string[]> = L[number];
    const s = <L extends readonly string[]>(range: ExportRange, _list: L) => ({ ...range, status: range.status as Of<L> | undefined });
    this.sources = {
      payments: {
        statuses: PAYMENT_STATUSES,
        currency: true,
        count: (ctx, r) => payments.exportCount(ctx, s(r, PAYMENT_STATUSES)),
        rows: (ctx, r) => payments.exportRows(ctx, s(r, PAYMENT_STATUSES)),
      },
      refunds: {
        statuses: REFUND_STATUSES,
        currency: false,
        count: (ctx, r) => refunds.exportCount(ctx, s(r, REFUND_STATUSES)),
        rows: (ctx, r) => refunds.exportRows(ctx, s(r, REFUND_STATUSES)),
      },
      ledger: {
        currency: true,
        count: (ctx, r) => ledger.exportCount(ctx, r),
        rows: (ctx, r) => ledger.exportRows(ctx, r),
      },
      customers: {
        currency: false,
        count: (ctx, r) => customers.exportCount(ctx, { from: r.from, to: r.to }),
        rows: (ctx, r) => customers.exportRows(ctx, { from: r.from, to: r.to }),
      },
      transfers: {
        statuses: TRANSFER_STATUSES,
        currency: true,
        count: (ctx, r) => transfers.exportCount(ctx, s(r, TRANSFER_STATUSES)),
        rows: (ctx, r) => transfers.exportRows(ctx, s(r, TRANSFER_STATUSES)),
      },
      settlements: {
        statuses: SETTLEMENT_STATUSES,
        currency: true,
        count: (ctx, r) => settlements.exportCount(ctx, s(r, SETTLEMENT_STATUSES)),
        rows: (ctx, r) => settlements.exportRows(ctx, s(r, SETTLEMENT_STATUSES)),
      },
      disputes: {
        statuses: DISPUTE_STATUSES,
        currency: false,
        count: (ctx, r) => disputes.exportCount(ctx, s(r, DISPUTE_STATUSES)),
        rows: (ctx, r) => disputes.exportRows(ctx, s(r, DISPUTE_STATUSES)),
      },
      invoices: {
        statuses: INVOICE_STATUSES,
        currency: false,
        count: (ctx, r) => invoices.exportCount(ctx, s(r, INVOICE_STATUSES)),
        rows: (ctx, r) => invoices.exportRows(ctx, s(r, INVOICE_STATUSES)),
      },
    };
  }

  of(type: ExportType): ExportSource {
    return this.sources[type];
  }
}
