import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { LedgerEntryResponse } from '@gateway/contracts';
import { allPages, Clock, CURRENCIES, type Currency, type DeveloperContext, DomainError, type Page, READ_THROUGH_PAGE_SIZE } from '@gateway/platform';
import { randomInt } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { WalletChainWalk } from './chain-walk';
import { LedgerChainRepository } from './ledger-chain.repository';
import { LedgerDuplicatePostingError } from './ledger.errors';
import { toLedgerEntryResponse } from './ledger.mapper';
import { countWalletEntries, LedgerRepository, WALLET_SLOT_COUNT } from './ledger.repository';
import type { ChainBreak, ChainVerification, LedgerEntryFilter, LedgerEntryView, Posting, WalletBalance } from './ledger.types';
import { checkPosting, onlyAddsToWallet, planSlotChanges, walletDeltas } from './posting-plan';

/** Entries the verifier reads per query: large enough to amortize the round trip, small enough to hold. */
const VERIFY_PAGE_SIZE = 1000;

/**
 * The merchant's wallet (per developer, mode and currency) and its append-only, double-entry
 * ledger. Balances change only through postings, in the caller's transaction.
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly chains: LedgerChainRepository,
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
    if (onlyAddsToWallet(deltas)) {
      // The common case (a payment's credit), and postings between system accounts only (their
      // entries still join one of the wallet's chains): one round trip once the wallet exists.
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
    // Every slot is held, so any chain would do: the entries join the lowest slot the debit changes.
    const postingId = await this.repository.postDebit(manager, ctx, posting, walletId, plan.changed, plan.changed[0].slot, now);
    if (!postingId) throw duplicate(posting);
  }

  /**
   * A posting made inside a caller's one statement (creditCtes, e.g. a payment's success): the
   * statement's ledger parameters ($1–$19), the posting checked as post() checks it. Null when
   * the posting takes from a bucket, which needs its slots locked first: post() it in a
   * transaction instead.
   * @throws LedgerUnbalancedError when the lines do not sum to zero or are malformed
   */
  creditInStatement(ctx: DeveloperContext, posting: Posting): unknown[] | null {
    checkPosting(posting);
    const deltas = walletDeltas(posting.lines);
    if (!onlyAddsToWallet(deltas)) return null;
    return this.repository.creditParameters(ctx, posting, deltas, randomInt(WALLET_SLOT_COUNT), this.clock.now());
  }

  /** Creates the wallet with its balance slots unless it exists (post() does it on a first credit; creditInStatement leaves it to its caller). */
  async ensureWallet(ctx: DeveloperContext, currency: Currency): Promise<void> {
    await this.repository.ensureWallet(this.dataSource.manager, ctx, currency, this.clock.now());
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

  /**
   * The wallet entries (as the list shows them) of the postings one API request made, in the
   * order they were written; at most REQUEST_ENTRIES_LIMIT. Empty for another tenant's request.
   */
  entriesForRequest(ctx: DeveloperContext, requestId: string): Promise<LedgerEntryView[]> {
    return this.repository.walletEntriesOfRequest(this.dataSource.manager, ctx, requestId);
  }

  /**
   * Proves the wallet's history unbroken (docs/ledger.md, "The hash chain"): walks every entry of
   * the wallet in `currency` (every currency's wallet when omitted), chain by chain, a page at a
   * time, recomputing each hash and link, and stops at the first break. Without `manager` the walk
   * reads one snapshot (a read-only REPEATABLE READ transaction), so postings committed meanwhile
   * can make no chain look longer than its head.
   */
  verifyChains(ctx: DeveloperContext, currency?: Currency, manager?: EntityManager): Promise<ChainVerification> {
    if (manager) return this.walkWallets(manager, ctx, currency);
    return this.dataSource.transaction('REPEATABLE READ', async (snapshot) => {
      await snapshot.query('SET TRANSACTION READ ONLY');
      return this.walkWallets(snapshot, ctx, currency);
    });
  }

  private async walkWallets(manager: EntityManager, ctx: DeveloperContext, currency: Currency | undefined): Promise<ChainVerification> {
    const result: ChainVerification = { verified: true, currency: currency ?? null, entriesChecked: 0, chains: 0, firstBroken: null };
    for (const walletCurrency of currency ? [currency] : CURRENCIES) {
      const heads = await this.chains.chainHeads(manager, ctx, walletCurrency);
      // Walked even without a wallet: entries left without one would show as a chain_head_mismatch.
      const walk = new WalletChainWalk(walletCurrency, heads ?? new Map(), WALLET_SLOT_COUNT);
      if (heads) result.chains += WALLET_SLOT_COUNT;
      const broken = await this.walkEntries(manager, ctx, walletCurrency, walk);
      result.entriesChecked += walk.entriesChecked;
      if (broken) return { ...result, verified: false, firstBroken: broken };
    }
    return result;
  }

  private async walkEntries(manager: EntityManager, ctx: DeveloperContext, currency: Currency, walk: WalletChainWalk): Promise<ChainBreak | null> {
    let after: { chainSlot: number; seq: string } | null = null;
    for (;;) {
      const page = await this.chains.chainPage(manager, ctx, currency, after, VERIFY_PAGE_SIZE);
      for (const row of page) {
        const broken = walk.visit(row);
        if (broken) return broken;
      }
      if (page.length < VERIFY_PAGE_SIZE) return walk.finish();
      after = page[page.length - 1];
    }
  }
}

function duplicate(posting: Posting): LedgerDuplicatePostingError {
  return new LedgerDuplicatePostingError(posting.sourceType, posting.sourceId, posting.kind);
}
