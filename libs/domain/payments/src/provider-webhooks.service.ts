import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Mode } from '@gateway/contracts';
import { PaymentProvider, type ProviderWebhook } from '@gateway/provider';
import { Clock, DomainError, sha256Hex } from '@gateway/platform';
import type { Repository } from 'typeorm';
import { PaymentConfirmationService } from './payment-confirmation.service';
import { PaymentsRepository } from './payments.repository';
import { ProviderEventEntity } from './provider-event.entity';
import { RefundsService } from './refunds/refunds.service';

/**
 * A claim still unfinished after this long is taken to be an instance's that died while processing,
 * and the next redelivery takes it over. Processing is a provider verify (bounded by
 * PROVIDER_TIMEOUT_MS) and a few statements, so a live claim never gets this old.
 */
const STALE_CLAIM_MS = 2 * 60_000;

// One statement claims the digest: a new delivery inserts it; a stale unfinished claim is taken
// over. A concurrent identical delivery blocks on the uncommitted row, then sees it and gets nothing.
const CLAIM_SQL = `INSERT INTO provider_events (digest, mode, event, received_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (digest) DO UPDATE SET received_at = EXCLUDED.received_at
    WHERE provider_events.processed_at IS NULL AND provider_events.received_at < $5
  RETURNING digest`;

/**
 * The provider's signed callbacks. Each is processed once — a redelivery is recognised by the
 * digest of its body — and drives the same code path as verify: the provider is asked again, so a
 * callback can never credit more, or differently, than verify would.
 *
 * "Once" is claim-first: the digest is claimed atomically before processing and marked processed
 * after it. Two identical deliveries arriving together: one processes, the other is answered 503
 * so the provider delivers it again later (by then it is a no-op). Processing that fails releases
 * the claim, so the provider's redelivery is processed. An instance that dies mid-processing
 * leaves a claim that a redelivery takes over once it is stale.
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

  /**
   * @throws invalid_signature when the signature matches neither mode's secret;
   *         service_unavailable while an identical delivery is being processed;
   *         whatever processing throws (gateway_timeout, provider_error, …) — the claim is released
   */
  async receive(rawBody: string, signature: string | undefined): Promise<void> {
    const event = this.provider.parseWebhook(Buffer.from(rawBody, 'utf8'), signature);
    if (!event) throw new DomainError('invalid_signature', 'The webhook signature is not valid.');
    const digest = sha256Hex(rawBody);
    const claimedAt = this.clock.now();

    const claim = await this.claim(digest, event.mode, event.event, claimedAt);
    if (claim === 'processed') return;
    if (claim === 'in_progress') throw new DomainError('service_unavailable', 'This callback is being processed; deliver it again later.');

    try {
      await this.process(event);
    } catch (error) {
      // Release only our own claim, so the provider's redelivery is processed.
      await this.processed.query(`DELETE FROM provider_events WHERE digest = $1 AND received_at = $2 AND processed_at IS NULL`, [digest, claimedAt]);
      throw error;
    }
    await this.processed.query(`UPDATE provider_events SET processed_at = $2 WHERE digest = $1 AND processed_at IS NULL`, [digest, this.clock.now()]);
  }

  private async claim(digest: string, mode: Mode, name: string, claimedAt: Date): Promise<'claimed' | 'processed' | 'in_progress'> {
    const claimed: unknown[] = await this.processed.query(CLAIM_SQL, [digest, mode, name, claimedAt, new Date(claimedAt.getTime() - STALE_CLAIM_MS)]);
    if (claimed.length) return 'claimed';
    const [row]: Array<{ processed_at: Date | null }> = await this.processed.query(`SELECT processed_at FROM provider_events WHERE digest = $1`, [digest]);
    return row?.processed_at ? 'processed' : 'in_progress';
  }

  private async process(event: ProviderWebhook): Promise<void> {
    if (event.kind === 'charge') await this.settleCharge(event.mode, event.data.reference);
    else if (event.kind === 'refund') await this.refunds.onProviderRefund(event.mode, event.data);
    // Transfers and disputes are handled by their own capabilities as they land.
  }

  private async settleCharge(mode: Mode, reference: string): Promise<void> {
    const payment = await this.payments.findByReference(mode, reference);
    if (!payment) {
      this.logger.warn(`provider callback for an unknown ${mode} payment; ignored`);
      return;
    }
    await this.confirmation.verify({ developerId: payment.developerId, mode }, reference);
  }
}
