import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Mode } from '@gateway/contracts';
import { DevelopersService } from '@gateway/domain/developers';
import { LedgerService, virtualAccountDepositLines } from '@gateway/domain/ledger';
import { breakDownPayment, defaultPlatformFee } from '@gateway/domain/payments';
import { EventsService } from '@gateway/domain/webhooks';
import { PaymentProvider, type ProviderTransaction } from '@gateway/provider';
import { Amount, APP_CONFIG, type AppConfig, Clock, type DeveloperContext, inTransaction, type Page, type ServingRequest, tenantOf, timeOrderedHex, timeOrderedUuid } from '@gateway/platform';
import { DataSource } from 'typeorm';
import type { VirtualAccountDepositEntity, VirtualAccountEntity } from './virtual-account.entities';
import { toVirtualAccountDepositResponse } from './virtual-account.mapper';
import { type PageQuery, VirtualAccountsRepository } from './virtual-accounts.repository';

/** What became of a deposit the provider reported. */
export type DepositOutcome =
  | { kind: 'credited'; deposit: VirtualAccountDepositEntity; account: VirtualAccountEntity }
  | { kind: 'unmatched' | 'recorded_before' | 'not_received' };

/**
 * Money received into dedicated accounts (table `virtual_account_deposits`). Each deposit is
 * recorded once — the provider's transaction id is unique per mode — and, when it matches an
 * account, the row, the wallet credit (`virtual_account_credit` plus the fee entries) and
 * `virtual_account.credited` commit in ONE transaction. So however often the provider repeats the
 * callback, or however many race, the wallet is credited and the event emitted once; the ledger's
 * unique (source, kind) posting key is a second guard. A deposit matching no account is recorded
 * without a tenant for operators (docs/virtual-accounts.md), never dropped.
 */
@Injectable()
export class VirtualAccountDepositsService {
  private readonly logger = new Logger(VirtualAccountDepositsService.name);

  constructor(
    private readonly repository: VirtualAccountsRepository,
    private readonly provider: PaymentProvider,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
    private readonly developers: DevelopersService,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The provider's callback for a deposit (a `charge.success` on channel `dedicated_nuban`). Like
   * a charge callback it drives a verify: the provider is asked about the transaction, so a
   * callback can never credit more, or differently, than the provider holds. `within`: the sandbox
   * request making the deposit, if any.
   * @throws gateway_timeout, provider_error (the verify failed: the provider delivers it again)
   */
  async onProviderDeposit(mode: Mode, notice: ProviderTransaction, within?: ServingRequest): Promise<DepositOutcome> {
    const verified = await this.provider.verifyTransaction(mode, notice.reference);
    if (!verified || verified.status !== 'success') {
      // Nothing was received (yet): a later callback or verify brings the success.
      this.logger.warn(`provider deposit callback (${mode}): the provider does not report it paid (${verified?.status ?? 'unknown'}); not recorded`);
      return { kind: 'not_received' };
    }
    return this.record(mode, { ...verified, bankTransfer: verified.bankTransfer ?? notice.bankTransfer ?? null }, within);
  }

  /** A credited deposit's account's deposits, newest first. */
  listOfAccount(ctx: DeveloperContext, virtualAccountId: string, query: PageQuery): Promise<Page<VirtualAccountDepositEntity>> {
    return this.repository.listDeposits(ctx, virtualAccountId, query);
  }

  /** Deposits no account matched, every tenant and mode (platform staff). */
  listUnmatched(query: PageQuery): Promise<Page<VirtualAccountDepositEntity>> {
    return this.repository.listUnmatched(query);
  }

  findRecorded(mode: Mode, providerTransactionId: string): Promise<VirtualAccountDepositEntity | null> {
    return this.repository.findDepositByProviderTransaction(mode, providerTransactionId);
  }

  private async record(mode: Mode, transaction: ProviderTransaction, within: ServingRequest | undefined): Promise<DepositOutcome> {
    const accountNumber = transaction.bankTransfer?.receiverAccountNumber ?? null;
    // Read before the transaction opens, so that it holds one connection only: many callbacks at
    // once must not each hold a connection while waiting for a second one from the pool.
    const account = accountNumber ? await this.repository.findForDeposit(mode, accountNumber) : null;
    const fees = account ? await this.fees({ developerId: account.developerId, mode }, transaction) : null;
    return inTransaction(this.dataSource, async (manager) => {
      const now = this.clock.now();
      const deposit: VirtualAccountDepositEntity = {
        id: timeOrderedUuid(),
        mode,
        reference: `vad_${timeOrderedHex(12)}`,
        developerId: null,
        virtualAccountId: null,
        accountNumber,
        amount: transaction.amount,
        currency: transaction.currency,
        providerFee: transaction.fee,
        platformFee: null,
        netAmount: null,
        senderName: transaction.bankTransfer?.senderName ?? null,
        senderBank: transaction.bankTransfer?.senderBank ?? null,
        providerTransactionId: transaction.providerId,
        providerReference: transaction.reference,
        paidAt: transaction.paidAt ?? now,
        createdAt: now,
      };
      if (!account || !fees) {
        if (await this.repository.insertDepositOnce(manager, deposit)) {
          // The account number stays out of the log: operators read it from the admin API.
          this.logger.warn(`deposit ${deposit.reference} (${mode}) matches no virtual account; recorded as unmatched for operators`);
          return { kind: 'unmatched' };
        }
        return { kind: 'recorded_before' };
      }
      const ctx = tenantOf({ developerId: account.developerId, mode }, within);
      const credited: VirtualAccountDepositEntity = { ...deposit, developerId: account.developerId, virtualAccountId: account.id, ...fees };
      if (!(await this.repository.insertDepositOnce(manager, credited))) return { kind: 'recorded_before' };
      await this.ledger.post(manager, ctx, {
        currency: credited.currency,
        sourceType: 'virtual_account_deposit',
        sourceId: credited.id,
        kind: 'credit',
        reference: credited.reference,
        lines: virtualAccountDepositLines({ amount: credited.amount, platformFee: fees.platformFee, providerFee: fees.providerFee }),
      });
      await this.events.emit(manager, ctx, 'virtual_account.credited', { ...toVirtualAccountDepositResponse(credited, account) });
      return { kind: 'credited', deposit: credited, account };
    });
  }

  /**
   * The fees of a deposit, as for a payment (decisions.md "Money"): the provider's fee as it
   * reports it, and the platform's flat fee (the developer's override, else the currency's
   * default). Neither ever exceeds what is left, so the net is never negative.
   */
  private async fees(ctx: DeveloperContext, transaction: ProviderTransaction): Promise<{ platformFee: Amount; providerFee: Amount; netAmount: Amount }> {
    const override = await this.developers.feeOverride(ctx.developerId, transaction.currency);
    const breakdown = breakDownPayment({
      amount: transaction.amount,
      platformFee: override ?? defaultPlatformFee(this.config, transaction.currency),
      providerFee: transaction.fee ?? Amount.zero(),
      splits: [],
    });
    return { platformFee: breakdown.platformFee, providerFee: breakdown.providerFee, netAmount: breakdown.net };
  }
}
