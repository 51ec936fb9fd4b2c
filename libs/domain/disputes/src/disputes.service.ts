import { Injectable, Logger } from '@nestjs/common';
import type { DisputeResponse, DisputeStatus, SandboxDisputeOutcome } from '@gateway/contracts';
import { PaymentsService } from '@gateway/domain/payments';
import { TestClocksService } from '@gateway/domain/test-clocks';
import { type DisputeEvidenceInput, PaymentProvider } from '@gateway/provider';
import { allPages, assertTransition, Clock, type DeveloperContext, DomainError, inTransaction, type Page, READ_THROUGH_PAGE_SIZE, requireTestMode } from '@gateway/platform';
import { DataSource } from 'typeorm';
import type { DisputeEntity, DisputeEvidence } from './dispute.entity';
import { DISPUTE_TRANSITIONS } from './dispute-status';
import { toDisputeResponse } from './dispute.mapper';
import { DisputeOutcomesService } from './dispute-outcomes.service';
import { type DisputeListFilter, DisputesRepository } from './disputes.repository';

/**
 * Disputes as the merchant sees them (table `disputes`): read, contested with evidence, and — in
 * test mode — opened and decided through the simulator. Creation and decisions come from the
 * provider (DisputeOutcomesService); the deadline scan loses the disputes nobody answered.
 */
@Injectable()
export class DisputesService {
  private readonly logger = new Logger(DisputesService.name);

  constructor(
    private readonly repository: DisputesRepository,
    private readonly outcomes: DisputeOutcomesService,
    private readonly payments: PaymentsService,
    private readonly provider: PaymentProvider,
    private readonly testClocks: TestClocksService,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** @throws dispute_not_found (also for another developer's or the other mode's dispute) */
  async get(ctx: DeveloperContext, reference: string): Promise<DisputeEntity> {
    const dispute = await this.repository.findByReference(ctx, reference);
    if (!dispute) throw new DomainError('dispute_not_found', 'No such dispute.');
    return dispute;
  }

  /** @throws validation_error (a cursor this list did not issue) */
  list(ctx: DeveloperContext, filter: DisputeListFilter): Promise<Page<DisputeEntity>> {
    return this.repository.list(ctx, filter);
  }

  /** Exports (docs/exports.md): the disputes created in [from, to), as the list returns them (same order, same wire form), a page at a time. */
  exportRows(ctx: DeveloperContext, range: { from: Date; to: Date; status?: DisputeStatus }): AsyncGenerator<DisputeResponse> {
    return allPages((cursor) => this.repository.list(ctx, { ...range, limit: READ_THROUGH_PAGE_SIZE, cursor }), toDisputeResponse);
  }

  /** How many rows exportRows yields (at the time of asking). */
  exportCount(ctx: DeveloperContext, range: { from: Date; to: Date; status?: DisputeStatus }): Promise<number> {
    return this.repository.countCreated(ctx, range);
  }

  /**
   * Contests the dispute at the provider with the evidence (evidence, a document summing it up,
   * resolve `declined`), then records it: `under_review`. An open dispute past its deadline is
   * lost first (the scan's path) and refused like any closed one.
   * @throws dispute_not_found, invalid_state (not open; the message names the status), gateway_timeout, provider_error
   */
  async submitEvidence(ctx: DeveloperContext, reference: string, evidence: DisputeEvidence): Promise<DisputeEntity> {
    let dispute = await this.get(ctx, reference);
    if (dispute.status === 'open' && dispute.evidenceDueAt <= (await this.testClocks.now(ctx))) {
      dispute = (await this.outcomes.close(dispute.id, 'expire', ctx)) ?? (await this.get(ctx, reference));
    }
    assertTransition(DISPUTE_TRANSITIONS, 'submitEvidence', dispute.status, `The dispute is ${dispute.status}; evidence can only be submitted while it is open.`);
    await this.provider.contestDispute(ctx.mode, dispute.providerDisputeId, {
      evidence: toProviderEvidence(evidence),
      document: evidenceDocument(dispute, evidence),
      message: evidence.explanation ?? 'The charge is valid; evidence attached.',
    });
    const moved = await inTransaction(this.dataSource, (manager) => this.repository.move(manager, dispute.id, 'submitEvidence', this.clock.now(), evidence));
    if (moved) return moved;
    // Decided (or expired) while the provider was being asked: answer as for any closed dispute.
    const now = await this.get(ctx, reference);
    throw new DomainError('invalid_state', `The dispute is ${now.status}; evidence can only be submitted while it is open.`);
  }

  /**
   * Loses every open dispute whose evidence deadline passed (the scheduler's scan; in the sandbox,
   * one tenant's as of a later time). Returns how many were lost.
   */
  async expireOverdue(limit = 100, ctx?: DeveloperContext, asOf?: Date): Promise<number> {
    const ids = await this.repository.findOverdue(asOf ?? this.clock.now(), limit, ctx);
    let lost = 0;
    for (const id of ids) {
      try {
        if (await this.outcomes.close(id, 'expire', ctx)) lost++;
      } catch (error) {
        this.logger.warn(`dispute ${id}: expiry failed, retried on the next scan: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return lost;
  }

  /**
   * Test mode: opens a chargeback at the simulator on a successful payment and records it from the
   * simulator's answer, exactly as its `charge.dispute.create` callback would (which then finds it).
   * @throws test_mode_required, payment_not_found, invalid_state (payment not successful), gateway_timeout, provider_error
   */
  async openSandbox(ctx: DeveloperContext, paymentReference: string): Promise<DisputeEntity> {
    requireTestMode(ctx);
    const { payment } = await this.payments.get(ctx, paymentReference);
    if (payment.status !== 'success') throw new DomainError('invalid_state', `The payment is ${payment.status}; only a successful payment can be disputed.`);
    const opened = await this.provider.openSandboxDispute(ctx.mode, { transactionReference: payment.reference });
    const dispute = await this.outcomes.onProviderDispute(ctx.mode, opened, ctx);
    if (!dispute) throw new Error(`sandbox dispute on ${payment.reference} could not be recorded`);
    return dispute;
  }

  /**
   * Test mode: the bank's decision, made at the simulator and applied as its `charge.dispute.resolve`
   * callback would be.
   * @throws test_mode_required, dispute_not_found, invalid_state (already decided), gateway_timeout, provider_error
   */
  async resolveSandbox(ctx: DeveloperContext, reference: string, outcome: SandboxDisputeOutcome): Promise<DisputeEntity> {
    requireTestMode(ctx);
    const dispute = await this.get(ctx, reference);
    assertTransition(DISPUTE_TRANSITIONS, outcome === 'won' ? 'win' : 'lose', dispute.status, `The dispute is ${dispute.status}; only an open or under-review dispute can be decided.`);
    const decided = await this.provider.resolveSandboxDispute(ctx.mode, dispute.providerDisputeId, outcome === 'won' ? 'declined' : 'merchant-accepted');
    return (await this.outcomes.onProviderDispute(ctx.mode, decided, ctx)) ?? dispute;
  }
}

function toProviderEvidence(e: DisputeEvidence): DisputeEvidenceInput {
  return {
    customerEmail: e.customerEmail,
    customerName: e.customerName,
    customerPhone: e.customerPhone,
    serviceDetails: e.serviceDetails,
    ...(e.deliveryAddress === null ? {} : { deliveryAddress: e.deliveryAddress }),
    ...(e.deliveryDate === null ? {} : { deliveryDate: e.deliveryDate }),
  };
}

/**
 * The provider contests only with a document attached; the merchant's files stay where they host
 * them, so the document is a plain-text summary of the evidence with the links to those files.
 */
function evidenceDocument(dispute: DisputeEntity, e: DisputeEvidence): { content: Uint8Array; contentType: string; fileName: string } {
  const lines = [
    `Evidence for dispute ${dispute.reference} (payment ${dispute.paymentReference})`,
    `Customer: ${e.customerName} <${e.customerEmail}>, ${e.customerPhone}`,
    `Product or service: ${e.serviceDetails}`,
    ...(e.serviceDate ? [`Service date: ${e.serviceDate}`] : []),
    ...(e.deliveryDate ? [`Delivery date: ${e.deliveryDate}`] : []),
    ...(e.deliveryAddress ? [`Delivery address: ${e.deliveryAddress}`] : []),
    ...(e.explanation ? ['', e.explanation] : []),
    ...(e.fileUrls.length > 0 ? ['', 'Files:', ...e.fileUrls] : []),
  ];
  return { content: Buffer.from(lines.join('\n'), 'utf8'), contentType: 'text/plain', fileName: `evidence-${dispute.reference}.txt` };
}
