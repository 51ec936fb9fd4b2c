import { Injectable, Logger } from '@nestjs/common';
import type { Mode } from '@gateway/contracts';
import { isProviderRefusal, SavedCardsService } from '@gateway/domain/payments';
import { TestClocksService } from '@gateway/domain/test-clocks';
import { PaymentProvider, type ProviderHold } from '@gateway/provider';
import { canMove, Clock, type DeveloperContext, inTransaction, type ServingRequest, targetOf, tenantOf } from '@gateway/platform';
import { DataSource } from 'typeorm';
import type { PaymentIntentEntity } from './payment-intent.entity';
import { INTENT_TRANSITIONS } from './payment-intent-status';
import { PaymentIntentsRepository } from './payment-intents.repository';

/** How long a hold lasts once placed (the spec's limit). */
export const HOLD_DAYS = 7;

/**
 * Holds for customers with no saved card (`requires_action`): the provider's authorize-only
 * checkout is opened under the intent's reference, and the intent becomes `requires_capture` —
 * its 7 days running from then — once the gateway learns the customer authorized it. It learns
 * it from whichever comes first: the provider's callback, the merchant reading or capturing the
 * intent (a verify), or the upkeep scan; each asks the provider, so all agree, and the move is
 * conditional, so it happens once.
 */
@Injectable()
export class PaymentIntentAuthorizationService {
  private readonly logger = new Logger(PaymentIntentAuthorizationService.name);

  constructor(
    private readonly repository: PaymentIntentsRepository,
    private readonly cards: SavedCardsService,
    private readonly provider: PaymentProvider,
    private readonly testClocks: TestClocksService,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Opens the checkout for a `holding` intent without a card. The provider answers the same
   * request again with the checkout already opened, so a retry is safe. A refusal deletes the
   * row (the merchant never saw it); a timeout keeps it for a retry or the upkeep scan.
   * @throws gateway_timeout, provider_error
   */
  async openCheckout(ctx: DeveloperContext, intent: PaymentIntentEntity): Promise<PaymentIntentEntity> {
    let authorizationUrl: string;
    try {
      ({ authorizationUrl } = await this.provider.initializeHoldCheckout(ctx.mode, { reference: intent.reference, email: intent.email, amount: intent.amount, currency: intent.currency }));
    } catch (error) {
      if (isProviderRefusal(error)) await this.repository.deleteUnconfirmed(intent.id);
      throw error;
    }
    // Not moved: the upkeep scan gave the create up meanwhile; answer the intent as it now is.
    await this.repository.move(this.repository.manager, intent.id, 'openCheckout', { providerAuthorizationUrl: authorizationUrl, updatedAt: this.clock.now() });
    return this.repository.findById(intent.id);
  }

  /**
   * Asks the provider whether the customer authorized the intent's hold, and records it if so.
   * Answers the intent as it now is; a provider that cannot be asked now leaves it unchanged
   * (the callback or the next scan tells later).
   */
  async sync(ctx: DeveloperContext, intent: PaymentIntentEntity): Promise<PaymentIntentEntity> {
    if (intent.status !== targetOf(INTENT_TRANSITIONS, 'openCheckout')) return intent;
    let hold: ProviderHold | null;
    try {
      hold = await this.provider.verifyAuthorization(ctx.mode, intent.reference);
    } catch (error) {
      this.logger.warn(`hold checkout ${intent.reference} could not be verified now: ${error instanceof Error ? error.message : String(error)}`);
      return intent;
    }
    if (hold?.status !== 'reserved' || !hold.authorization) return intent;
    return this.recordAuthorized(ctx, intent.id, hold);
  }

  /** The provider's callback: a customer authorized a hold checkout. Unknown references are ignored. */
  async onProviderHold(mode: Mode, reference: string, within?: ServingRequest): Promise<void> {
    const intent = await this.repository.findByModeAndReference(mode, reference);
    if (!intent) {
      this.logger.warn(`provider hold callback for an unknown ${mode} payment intent; ignored`);
      return;
    }
    await this.sync(tenantOf({ developerId: intent.developerId, mode }, within), intent);
  }

  /** Where `/checkout/holds/{reference}` sends the customer's browser: the provider's page, while the intent awaits them. */
  async checkoutDestination(reference: string): Promise<string | null> {
    const intent = await this.repository.findForCheckout(reference);
    const awaiting = intent?.status === targetOf(INTENT_TRANSITIONS, 'openCheckout') && intent.expiresAt.getTime() > this.clock.now().getTime();
    return awaiting ? intent.providerAuthorizationUrl : null;
  }

  /** Saves the customer's new card and moves the intent `authorize` (once), in one transaction. */
  private recordAuthorized(ctx: DeveloperContext, id: string, hold: ProviderHold): Promise<PaymentIntentEntity> {
    const card = hold.authorization as NonNullable<ProviderHold['authorization']>;
    return inTransaction(this.dataSource, async (manager) => {
      const locked = await this.repository.lockById(manager, id);
      if (!canMove(INTENT_TRANSITIONS, 'authorize', locked.status)) return locked;
      const saved = await this.cards.saveProviderCard(manager, ctx, { customerId: locked.customerId, email: locked.email }, card);
      const now = this.clock.now();
      // The 7 days run from the authorization, on the tenant's (test) clock.
      const holdFrom = await this.testClocks.now(ctx, manager);
      const changes = { authorizationId: saved.id, expiresAt: new Date(holdFrom.getTime() + HOLD_DAYS * 86_400_000), updatedAt: now };
      await this.repository.move(manager, id, 'authorize', changes);
      return { ...locked, ...changes, status: targetOf(INTENT_TRANSITIONS, 'authorize') };
    });
  }
}
