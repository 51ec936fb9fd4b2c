import { Inject, Injectable } from '@nestjs/common';
import type { PaymentPreviewResponse } from '@gateway/contracts';
import { DevelopersService } from '@gateway/domain/developers';
import { SubaccountsService } from '@gateway/domain/subaccounts';
import { estimateProviderFee, PaymentProvider } from '@gateway/provider';
import { type Amount, APP_CONFIG, type AppConfig, type Currency, type DeveloperContext } from '@gateway/platform';
import { DataSource } from 'typeorm';
import { breakDownPayment, type PaymentBreakdown } from './payment-breakdown';
import { defaultPlatformFee } from './payment-config';
import { parseRequestCurrency, parseSplits, PaymentsService } from './payments.service';

export interface PaymentPreviewInput {
  amount: number;
  currency?: string;
  splits?: Array<{ subaccount: string; share: number }>;
}

export interface PaymentPreview extends PaymentBreakdown {
  amount: Amount;
  currency: Currency;
}

/**
 * Where a payment's money would go, before it exists: the same checks as initialize and the same
 * breakdown verify ledgers, with the provider's published fee standing in for the one the provider
 * will report. Nothing is written and the provider is not called.
 */
@Injectable()
export class PaymentPreviewService {
  constructor(
    private readonly payments: PaymentsService,
    private readonly developers: DevelopersService,
    private readonly subaccounts: SubaccountsService,
    private readonly provider: PaymentProvider,
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** @throws invalid_currency, capability_not_supported, validation_error (also for an unknown or inactive sub-account), split_shares_exceed_total */
  async preview(ctx: DeveloperContext, input: PaymentPreviewInput): Promise<PaymentPreview> {
    const currency = parseRequestCurrency(input.currency);
    this.provider.capabilities(ctx.mode).require('payments', currency);
    const amount = this.payments.checkRequestAmount(input.amount, currency);
    const splits = parseSplits(input.splits ?? []);
    await this.subaccounts.requireActive(ctx, splits.map((s) => s.subaccount), this.dataSource.manager);
    const platformFee = (await this.developers.feeOverride(ctx.developerId, currency)) ?? defaultPlatformFee(this.config, currency);
    return { amount, currency, ...breakDownPayment({ amount, platformFee, providerFee: estimateProviderFee(amount, currency), splits }) };
  }
}

export function toPaymentPreviewResponse(preview: PaymentPreview): PaymentPreviewResponse {
  return {
    amount: preview.amount.toNumber(),
    currency: preview.currency,
    platform_fee: preview.platformFee.toNumber(),
    estimated_provider_fee: preview.providerFee.toNumber(),
    net_amount: preview.net.toNumber(),
    splits: preview.shares.map((s) => ({ subaccount: s.subaccount, share: Number(s.share), amount: s.amount.toNumber() })),
    wallet_amount: preview.walletKeeps.toNumber(),
  };
}
