import { Injectable } from '@nestjs/common';
import { PaymentProvider } from '@gateway/provider';
import { type DeveloperContext, DomainError, requireTestMode } from '@gateway/platform';
import { PaymentChargesService } from './payment-charges.service';
import { PaymentConfirmationService } from './payment-confirmation.service';
import type { PaymentView } from './payment.mapper';
import { PaymentsMaintenanceService } from './payments-maintenance.service';
import { PaymentsRepository } from './payments.repository';

export type SandboxCheckoutOutcome = 'success' | 'declined' | 'insufficient_funds';

/**
 * Test-mode controls so merchants (and our tests) drive whole flows without a browser or a wait.
 * Everything here refuses live mode: nothing in the sandbox can move real money. (The hold-expiry
 * scan's sandbox run is PaymentIntentsUpkeepService.expireTestHolds.)
 */
@Injectable()
export class PaymentsSandboxService {
  constructor(
    private readonly repository: PaymentsRepository,
    private readonly provider: PaymentProvider,
    private readonly confirmation: PaymentConfirmationService,
    private readonly maintenance: PaymentsMaintenanceService,
    private readonly charges: PaymentChargesService,
  ) {}

  /**
   * Pays the hosted checkout as a customer with a test card would, then verifies it.
   * @throws test_mode_required, payment_not_found, invalid_state, gateway_timeout, provider_error
   */
  async completeCheckout(ctx: DeveloperContext, reference: string, outcome: SandboxCheckoutOutcome): Promise<PaymentView> {
    requireTestMode(ctx);
    const view = await this.repository.findView(ctx, reference);
    if (!view) throw new DomainError('payment_not_found', 'No such payment.');
    const { status } = view.payment;
    if (status !== 'pending' && status !== 'failed') {
      throw new DomainError('invalid_state', `The payment is ${status}; only a pending (or declined) checkout can be completed.`);
    }
    await this.provider.completeSandboxCheckout(ctx.mode, reference, outcome);
    return this.confirmation.verify(ctx, reference);
  }

  /** Runs the abandoned-payments scan now for this developer's test payments, optionally as of a later time. */
  async abandonUnpaid(ctx: DeveloperContext, asOf?: Date): Promise<number> {
    requireTestMode(ctx);
    return this.maintenance.abandonAllUnpaid(ctx, asOf);
  }

  /** Charges this developer's due scheduled test payments now, optionally as of a later time. */
  async chargeDue(ctx: DeveloperContext, asOf?: Date): Promise<number> {
    requireTestMode(ctx);
    return this.charges.chargeDue(100, ctx, asOf);
  }
}
