import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PaymentProvider } from '@gateway/provider';
import { Clock, DomainError } from '@gateway/platform';
import { createHash } from 'node:crypto';
import type { Repository } from 'typeorm';
import { PaymentConfirmationService } from './payment-confirmation.service';
import { PaymentsRepository } from './payments.repository';
import { ProviderEventEntity } from './provider-event.entity';
import { RefundsService } from './refunds/refunds.service';

/**
 * The provider's signed callbacks. Each is processed once (a redelivery is recognised by the
 * digest of its body) and drives the same code path as verify: the provider is asked again, so a
 * callback can never credit more, or differently, than verify would.
 */
@Injectable()
export class ProviderWebhooksService {
  private readonly logger = new Logger(ProviderWebhooksService.name);

  constructor(
    private readonly provider: PaymentProvider,
    private readonly payments: PaymentsRepository,
    private readonly confirmation: PaymentConfirmationService,
    private readonly refunds: RefundsService,
    @InjectRepository(ProviderEventEntity) private readonly processed: Repository<ProviderEventEntity>,
    private readonly clock: Clock,
  ) {}

  /** @throws invalid_signature when the signature matches neither mode's secret */
  async receive(rawBody: string, signature: string | undefined): Promise<void> {
    const event = this.provider.parseWebhook(Buffer.from(rawBody, 'utf8'), signature);
    if (!event) throw new DomainError('invalid_signature', 'The webhook signature is not valid.');
    const digest = createHash('sha256').update(rawBody).digest('hex');
    if (await this.processed.existsBy({ digest })) return;

    if (event.kind === 'charge') await this.settleCharge(event.mode, event.data.reference);
    else if (event.kind === 'refund') await this.refunds.onProviderRefund(event.mode, event.data);
    // Transfers and disputes are handled by their own capabilities as they land.

    // Recorded after processing: a crash in between means the provider's redelivery is processed
    // again, which is harmless because settling a payment is idempotent.
    await this.processed.createQueryBuilder().insert().values({ digest, mode: event.mode, event: event.event, receivedAt: this.clock.now() }).orIgnore().execute();
  }

  private async settleCharge(mode: 'test' | 'live', reference: string): Promise<void> {
    const payment = await this.payments.findByReference(mode, reference);
    if (!payment) {
      this.logger.warn(`provider callback for an unknown ${mode} payment; ignored`);
      return;
    }
    await this.confirmation.verify({ developerId: payment.developerId, mode }, reference);
  }
}
