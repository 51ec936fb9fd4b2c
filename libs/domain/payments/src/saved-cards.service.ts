import { Injectable } from '@nestjs/common';
import type { ProviderAuthorization } from '@gateway/provider';
import { Clock, type DeveloperContext, DomainError, randomHex } from '@gateway/platform';
import type { EntityManager } from 'typeorm';
import type { PaymentAuthorizationEntity } from './payment-authorization.entity';
import { PaymentsRepository } from './payments.repository';

/** A customer's saved card as other modules use it: which card, whose, and the provider's code to charge or hold it. */
export type SavedCard = Pick<PaymentAuthorizationEntity, 'id' | 'code' | 'customerId' | 'email' | 'reusable' | 'providerAuthorizationCode'>;

/**
 * Saved cards (`AUTH_…`, the `payment_authorizations` rows a successful payment leaves). Charges,
 * scheduled payments and payment intents find the card they use here.
 */
@Injectable()
export class SavedCardsService {
  constructor(
    private readonly repository: PaymentsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The card with this code, of this customer (by e-mail, case-insensitive), that can be charged again.
   * @throws authorization_not_found, validation_error (not reusable)
   */
  async require(ctx: DeveloperContext, code: string, email: string, manager: EntityManager = this.repository.manager): Promise<SavedCard> {
    const card = await this.repository.findAuthorization(ctx, code, manager);
    if (!card || card.email.toLowerCase() !== email.trim().toLowerCase()) {
      throw new DomainError('authorization_not_found', 'No saved card with this authorization code for this customer.');
    }
    if (!card.reusable) throw new DomainError('validation_error', 'This card cannot be charged again.', { authorization_code: ['is not reusable'] });
    return card;
  }

  /** The customer's most recent reusable card (by e-mail, case-insensitive), or null. */
  latestReusable(ctx: DeveloperContext, email: string): Promise<SavedCard | null> {
    return this.repository.latestReusableAuthorization(ctx, email);
  }

  /**
   * Saves a card the provider authorized outside a payment (a hold authorized on the hosted page),
   * in the caller's transaction; the same provider card for this tenant answers the row already saved.
   */
  saveProviderCard(manager: EntityManager, ctx: DeveloperContext, owner: { customerId: string; email: string }, card: ProviderAuthorization): Promise<SavedCard> {
    return this.repository.saveAuthorization(manager, {
      developerId: ctx.developerId,
      mode: ctx.mode,
      code: `AUTH_${randomHex(10)}`,
      customerId: owner.customerId,
      email: owner.email,
      providerAuthorizationCode: card.code,
      providerSignature: card.signature,
      reusable: card.reusable,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      bank: card.bank,
      channel: card.channel,
      createdAt: this.clock.now(),
    });
  }

  findById(ctx: DeveloperContext, id: string): Promise<SavedCard | null> {
    return this.repository.findAuthorizationById(this.repository.manager, ctx, id);
  }
}
