import { Injectable, Logger } from '@nestjs/common';
import type { Mode } from '@gateway/contracts';
import { DisputeOutcomesService } from '@gateway/domain/disputes';
import { PaymentIntentAuthorizationService } from '@gateway/domain/payment-intents';
import { PaymentConfirmationService } from '@gateway/domain/payments';
import { RefundsService } from '@gateway/domain/refunds';
import { SETTLEMENT_REFERENCE_PREFIX, SettlementPayoutsService } from '@gateway/domain/settlements';
import { TransfersService } from '@gateway/domain/transfers';
import { VirtualAccountDepositsService } from '@gateway/domain/virtual-accounts';
import { PaymentProvider, type ProviderWebhook } from '@gateway/provider';
import { Clock, DomainError, type ServingRequest, sha256Hex } from '@gateway/platform';
import { ProviderEventsRepository } from './provider-events.repository';

/**
 * A claim still unfinished after this long is taken to be an instance's that died while processing,
 * and the next redelivery takes it over. Processing is a provider verify (bounded by
 * PROVIDER_TIMEOUT_MS) and a few statements, so a live claim never gets this old.
 */
const STALE_CLAIM_MS = 2 * 60_000;

/**
 * The provider's signed callbacks (table `provider_events`), routed to the module each concerns:
 * a charge to payments' confirmation, a refund to refunds, a payout to transfers or settlements,
 * a chargeback to disputes. Each drives the same code path as verify: the provider is asked again,
 * so a callback can never credit more, or differently, than verify would.
 *
 * Each is processed once. A charge of one of our payments is made once by verify's path itself
 * (its conditional status move), so it is not claimed. Every other callback is claimed first: the
 * digest of its body is claimed atomically before processing and marked processed after it. Two
 * identical deliveries arriving together: one processes, the other is answered 503 so the provider
 * delivers it again later (by then it is a no-op). Processing that fails releases the claim, so the
 * provider's redelivery is processed. An instance that dies mid-processing leaves a claim that a
 * redelivery takes over once it is stale.
 */
@Injectable()
export class ProviderWebhooksService {
  private readonly logger = new Logger(ProviderWebhooksService.name);

  constructor(
    private readonly provider: PaymentProvider,
    private readonly repository: ProviderEventsRepository,
    private readonly confirmation: PaymentConfirmationService,
    private readonly refunds: RefundsService,
    private readonly transfers: TransfersService,
    private readonly settlements: SettlementPayoutsService,
    private readonly disputes: DisputeOutcomesService,
    private readonly deposits: VirtualAccountDepositsService,
    private readonly holds: PaymentIntentAuthorizationService,
    private readonly clock: Clock,
  ) {}

  /**
   * `within`: the callback's own request, whose id what it changes records (request traces).
   * @throws invalid_signature when the signature matches neither mode's secret;
   *         service_unavailable while an identical delivery is being processed;
   *         whatever processing throws (gateway_timeout, provider_error, …) — the claim is released
   */
  async receive(rawBody: string, signature: string | undefined, within?: ServingRequest): Promise<void> {
    const event = this.provider.parseWebhook(Buffer.from(rawBody, 'utf8'), signature);
    if (!event) throw new DomainError('invalid_signature', 'The webhook signature is not valid.');
    if (isPaymentCharge(event)) {
      // A charge of one of our payments is not claimed. When verify or another delivery has settled
      // the payment already — in the hosted checkout, the callback and the merchant's verify race,
      // so this is every other payment — there is nothing to do: acknowledged without any write.
      // Otherwise it takes verify's path, whose conditional status move credits once however many
      // deliveries and verifies run at once (within one instance they ask the provider once). A
      // failure answers the error; the provider's redelivery runs it again.
      const charge = await this.confirmation.findForCallback(event.mode, event.data.reference);
      if (charge?.settled) return;
      if (charge) return this.confirmation.verifyForCallback(event.mode, event.data.reference, charge, within);
    }
    const digest = sha256Hex(rawBody);
    const claimedAt = this.clock.now();

    const claim = await this.claim(digest, event.mode, event.event, claimedAt);
    if (claim === 'processed') return;
    if (claim === 'in_progress') throw new DomainError('service_unavailable', 'This callback is being processed; deliver it again later.');

    try {
      await this.process(event, within);
    } catch (error) {
      // Release only our own claim, so the provider's redelivery is processed.
      await this.repository.release(digest, claimedAt);
      throw error;
    }
    await this.repository.markProcessed(digest, this.clock.now());
  }

  private async claim(digest: string, mode: Mode, name: string, claimedAt: Date): Promise<'claimed' | 'processed' | 'in_progress'> {
    if (await this.repository.claim(digest, mode, name, claimedAt, new Date(claimedAt.getTime() - STALE_CLAIM_MS))) return 'claimed';
    return (await this.repository.isProcessed(digest)) ? 'processed' : 'in_progress';
  }

  /** A payout is a merchant's transfer or an account's settlement: our references tell them apart. */
  private async onTransfer(mode: Mode, reference: string, within: ServingRequest | undefined): Promise<void> {
    if (mode === 'live' && reference.startsWith(SETTLEMENT_REFERENCE_PREFIX)) await this.settlements.onProviderTransfer(reference, within);
    else await this.transfers.onProviderTransfer(mode, reference, within);
  }

  private async process(event: ProviderWebhook, within: ServingRequest | undefined): Promise<void> {
    // A bank transfer into a dedicated account is a `charge.success` too, under a reference the provider made up.
    if (event.kind === 'charge' && event.data.channel === 'dedicated_nuban') await this.deposits.onProviderDeposit(event.mode, event.data, within);
    // A charge whose reference this mode does not know (verify's path logs and ignores it).
    else if (event.kind === 'charge') await this.confirmation.verifyForCallback(event.mode, event.data.reference, undefined, within);
    else if (event.kind === 'refund') await this.refunds.onProviderRefund(event.mode, event.data, within);
    else if (event.kind === 'transfer') await this.onTransfer(event.mode, event.data.reference, within);
    else if (event.kind === 'dispute') await this.disputes.onProviderDispute(event.mode, event.data, within);
    else if (event.kind === 'hold') await this.holds.onProviderHold(event.mode, event.data.reference, within);
    else if (event.kind === 'other' && event.problem !== undefined) {
      // Acknowledged, never refused: a refusal would only make the provider deliver it again forever.
      this.logger.warn(`provider callback ${event.event || '(no event name)'} (${event.mode}) acknowledged unread: ${event.problem}`);
    } else {
      this.logger.log(`provider callback ${event.event} (${event.mode}) acknowledged, not acted on`);
    }
  }
}

/** A charge of one of our payments: any `charge` callback but a deposit into a dedicated account (its reference is the provider's). */
function isPaymentCharge(event: ProviderWebhook): event is Extract<ProviderWebhook, { kind: 'charge' }> {
  return event.kind === 'charge' && event.data.channel !== 'dedicated_nuban';
}
