import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { LedgerEntryResponse } from '@gateway/contracts';
import { allPages, Clock, type Currency, type DeveloperContext, DomainError, type Page, READ_THROUGH_PAGE_SIZE } from '@gateway/platform';
import { randomInt } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { LedgerDuplicatePostingError } from './ledger.errors';
import { toLedgerEntryResponse } from './ledger.mapper';
import { countWalletEntries, LedgerRepository, WALLET_SLOT_COUNT } from './ledger.repository';
import type { LedgerEntryFilter, LedgerEntryView, Posting, WalletBalance } from './ledger.types';
import { checkPosting, onlyAddsToWallet, planSlotChanges, touchesWallet, walletDeltas } from './posting-plan';

/**
 * The merchant's wallet (per developer, mode and currency) and its append-only, double-entry
 * ledger. Balances change only through postings, in the caller's transaction.
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * Records one balanced posting and applies it to the wallet, inside the caller's transaction
   * (`manager`). Nothing is written when it throws; the caller should roll back anyway.
   *
   * A posting that only adds to the wallet updates one free balance slot and waits for nobody.
   * A posting that takes from a bucket locks all the wallet's slots in slot order and checks
   * the bucket covers it. Within one transaction, make debits to a wallet before credits to it:
   * a credit's slot lock taken first could deadlock with another transaction's debit.
   *
   * @throws insufficient_wallet_balance (DomainError) when a bucket cannot cover the posting
   * @throws LedgerDuplicatePostingError when (sourceType, sourceId, kind) was already posted
   * @throws LedgerUnbalancedError when the lines do not sum to zero or are malformed
   */
  async post(manager: EntityManager, ctx: DeveloperContext, posting: Posting): Promise<void> {
    checkPosting(posting);
    const now = this.clock.now();
    const deltas = walletDeltas(posting.lines);
    if (!touchesWallet(deltas)) {
      // Between system accounts only (or wallet lines that cancel out): no balance row changes.
      await this.repository.insertEntries(manager, ctx, await this.insertPosting(manager, ctx, posting, now), posting, now);
      return;
    }
    if (onlyAddsToWallet(deltas)) {
      // The common case (a payment's credit): one round trip once the wallet exists.
      const start = randomInt(WALLET_SLOT_COUNT);
      let posted = await this.repository.postCredit(manager, ctx, posting, deltas, start, now);
      if (!posted.walletId) {
        await this.repository.ensureWallet(manager, ctx, posting.currency, now);
        posted = await this.repository.postCredit(manager, ctx, posting, deltas, start, now);
      }
      if (!posted.postingId) throw duplicate(posting);
      return;
    }
    const walletId = await this.repository.ensureWallet(manager, ctx, posting.currency, now);

    // Cheap early answer for the common retry; the unique key below is what guarantees it.
    if (await this.repository.postingExists(manager, ctx, posting)) throw duplicate(posting);
    const plan = planSlotChanges(await this.repository.lockAllSlots(manager, walletId), deltas);
    if ('shortfall' in plan) {
      throw new DomainError('insufficient_wallet_balance', `The ${plan.shortfall} balance is too low for this operation.`);
    }
    const postingId = await this.insertPosting(manager, ctx, posting, now);
    await this.repository.writeSlots(manager, walletId, plan.changed);
    await this.repository.insertEntries(manager, ctx, postingId, posting, now);
  }

  /** Available, pending, reserved and their total; zeros when the wallet has never been used. */
  async balance(ctx: DeveloperContext, currency: Currency, manager: EntityManager = this.dataSource.manager): Promise<WalletBalance> {
    const { available, pending, reserved } = await this.repository.sumSlots(manager, ctx, currency);
    return { available, pending, reserved, total: available.plus(pending).plus(reserved), currency };
  }

  /**
   * The wallet's entries, newest first, keyset-paginated.
   * @throws validation_error for a cursor this service did not issue
   */
  listEntries(ctx: DeveloperContext, filter: LedgerEntryFilter): Promise<Page<LedgerEntryView>> {
    return this.repository.listWalletEntries(this.dataSource.manager, ctx, filter);
  }

  /** Exports (docs/exports.md): the wallet entries created in [from, to), as the list returns them (same order, same wire form), a page at a time. */
  exportRows(ctx: DeveloperContext, range: { from: Date; to: Date; currency?: Currency }): AsyncGenerator<LedgerEntryResponse> {
    const filter = { from: range.from, before: range.to, currency: range.currency, limit: READ_THROUGH_PAGE_SIZE };
    return allPages((cursor) => this.repository.listWalletEntries(this.dataSource.manager, ctx, { ...filter, cursor }), toLedgerEntryResponse);
  }

  /** How many rows exportRows yields (at the time of asking). */
  exportCount(ctx: DeveloperContext, range: { from: Date; to: Date; currency?: Currency }): Promise<number> {
    return countWalletEntries(this.dataSource.manager, ctx, range);
  }

  private async insertPosting(manager: EntityManager, ctx: DeveloperContext, posting: Posting, now: Date): Promise<string> {
    const postingId = await this.repository.insertPosting(manager, ctx, posting, now);
    if (!postingId) throw duplicate(posting);
    return postingId;
  }
}

function duplicate(posting: Posting): LedgerDuplicatePostingError {
  return new LedgerDuplicatePostingError(posting.sourceType, posting.sourceId, posting.kind);
}
