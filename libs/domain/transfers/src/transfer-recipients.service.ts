import { Injectable } from '@nestjs/common';
import type { FieldErrors } from '@gateway/contracts';
import { parseRequestCurrency } from '@gateway/domain/payments';
import { PaymentProvider, type ProviderBank } from '@gateway/provider';
import { Clock, type Currency, type DeveloperContext, DomainError, type Page, randomHex, timeOrderedUuid } from '@gateway/platform';
import type { TransferRecipientEntity } from './transfer-recipient.entity';
import { type RecipientListFilter, TransferRecipientsRepository } from './transfer-recipients.repository';

export interface NewRecipient {
  bankCode: string;
  accountNumber: string;
  currency?: string;
}

/** The provider's bank list changes rarely; a copy this young is answered without asking. */
const BANK_LIST_TTL_MS = 10 * 60_000;

/**
 * The bank accounts a merchant pays (table `transfer_recipients`). A recipient is created once per
 * bank account and currency: the account's name is resolved through the provider (the bank's
 * answer, not the merchant's spelling), the recipient is saved at the provider, and its provider
 * code stays internal. Adding the same account again answers the saved recipient.
 */
@Injectable()
export class TransferRecipientsService {
  private readonly bankLists = new Map<string, { banks: ProviderBank[]; fetchedAt: number }>();

  constructor(
    private readonly repository: TransferRecipientsRepository,
    private readonly provider: PaymentProvider,
    private readonly clock: Clock,
  ) {}

  /**
   * The saved recipient of this bank account in this currency, created when there is none.
   * @throws invalid_currency, capability_not_supported, validation_error (unknown bank, an account
   *         the bank does not know), gateway_timeout, provider_error
   */
  async findOrCreate(ctx: DeveloperContext, input: NewRecipient): Promise<TransferRecipientEntity> {
    const currency = parseRequestCurrency(input.currency);
    this.provider.capabilities(ctx.mode).require('transfers', currency);
    const nuban = nubanProblem(currency, input.accountNumber);
    if (nuban) throw new DomainError('validation_error', 'The account number is not valid.', { account_number: [nuban] });
    const existing = await this.repository.findByAccount(ctx, input.bankCode, input.accountNumber, currency);
    if (existing) return existing;

    const bank = (await this.banks(ctx, currency)).find((candidate) => candidate.code === input.bankCode);
    if (!bank) throw new DomainError('validation_error', 'The bank is not known.', { bank_code: [unlistedBank(currency)] });
    const resolved = await this.provider.resolveAccount(ctx.mode, { accountNumber: input.accountNumber, bankCode: input.bankCode });
    if (!resolved) throw new DomainError('validation_error', 'The bank account could not be resolved.', { account_number: [`is not an account at ${bank.name}`] });
    const saved = await this.provider.createTransferRecipient(ctx.mode, { name: resolved.accountName, accountNumber: input.accountNumber, bankCode: input.bankCode, currency });
    return this.repository.insertOrFind({
      id: timeOrderedUuid(),
      developerId: ctx.developerId,
      mode: ctx.mode,
      recipientCode: `RCP_${randomHex(10)}`,
      accountName: resolved.accountName,
      accountNumber: input.accountNumber,
      bankCode: input.bankCode,
      bankName: bank.name,
      currency,
      providerRecipientCode: saved.providerRecipientCode,
      createdAt: this.clock.now(),
    });
  }

  /** @throws validation_error naming `field` when the tenant has no such recipient */
  async require(ctx: DeveloperContext, recipientCode: string, field = 'recipient'): Promise<TransferRecipientEntity> {
    const recipient = await this.repository.findByCode(ctx, recipientCode);
    if (!recipient) throw new DomainError('validation_error', 'The recipient is not known.', { [field]: ['is not a recipient of this account (POST /transfers/recipients)'] });
    return recipient;
  }

  /**
   * What can be told of bank accounts without resolving each at its bank — an NGN account number
   * is a NUBAN, the bank is one the provider lists (one cached list) — as field errors per account
   * (empty when none): a bulk request is checked this way up front, and each account is resolved
   * when its transfer is made.
   * @throws capability_not_supported, gateway_timeout, provider_error (the bank list)
   */
  async precheckAccounts(ctx: DeveloperContext, currency: Currency, accounts: Array<Pick<NewRecipient, 'bankCode' | 'accountNumber'>>): Promise<FieldErrors[]> {
    const listed = accounts.length ? new Set((await this.banks(ctx, currency)).map((bank) => bank.code)) : new Set<string>();
    return accounts.map((account) => {
      const errors: FieldErrors = {};
      const nuban = nubanProblem(currency, account.accountNumber);
      if (nuban) errors.account_number = [nuban];
      if (!listed.has(account.bankCode)) errors.bank_code = [unlistedBank(currency)];
      return errors;
    });
  }

  /** The tenant's recipients among `codes`, by code (unknown codes are absent). */
  async byCodes(ctx: DeveloperContext, codes: string[]): Promise<Map<string, TransferRecipientEntity>> {
    const rows = await this.repository.findByCodes(ctx, codes);
    return new Map(rows.map((row) => [row.recipientCode, row]));
  }

  list(ctx: DeveloperContext, filter: RecipientListFilter): Promise<Page<TransferRecipientEntity>> {
    return this.repository.list(ctx, filter);
  }

  byIds(ids: string[]): Promise<Map<string, TransferRecipientEntity>> {
    return this.repository.byIds(ids);
  }

  /**
   * The banks the mode's provider account can pay in `currency`, as the provider lists them.
   * @throws capability_not_supported, gateway_timeout, provider_error
   */
  async banks(ctx: Pick<DeveloperContext, 'mode'>, currency: Currency): Promise<ProviderBank[]> {
    this.provider.capabilities(ctx.mode).require('transfers', currency);
    const key = `${ctx.mode}:${currency}`;
    const cached = this.bankLists.get(key);
    const now = this.clock.now().getTime();
    if (cached && now - cached.fetchedAt < BANK_LIST_TTL_MS) return cached.banks;
    const banks = await this.provider.listBanks(ctx.mode, currency);
    this.bankLists.set(key, { banks, fetchedAt: now });
    return banks;
  }
}

/** Why `accountNumber` cannot be an account in `currency` (an NGN account is a 10-digit NUBAN), or null. */
function nubanProblem(currency: Currency, accountNumber: string): string | null {
  return currency === 'NGN' && !/^[0-9]{10}$/.test(accountNumber) ? 'must be a 10-digit NUBAN for NGN' : null;
}

const unlistedBank = (currency: Currency) => `is not a ${currency} bank listed by GET /banks`;
