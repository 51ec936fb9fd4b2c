import { Injectable } from '@nestjs/common';
import { type FieldErrors, NUBAN_PATTERN, SUBACCOUNT_BANK_CODE_PATTERN } from '@gateway/contracts';
import { Clock, type DeveloperContext, DomainError, type Page } from '@gateway/platform';
import { randomInt } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { SubaccountEntity } from './subaccount.entity';
import { type SubaccountListFilter, SubaccountsRepository } from './subaccounts.repository';

export type { SubaccountListFilter } from './subaccounts.repository';

export interface NewSubaccount {
  businessName: string;
  bankCode: string;
  accountNumber: string;
  accountName?: string;
  description?: string;
  metadata?: Record<string, unknown>;
}

const CODE_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const CODE_LENGTH = 10;
/** 36^10 codes per tenant: a collision is already improbable; a few draws make it practically impossible. */
const CODE_ATTEMPTS = 3;

/**
 * Sub-accounts a developer registers (per mode) to receive shares of split payments.
 * One sub-account per bank account (bank code + account number) and tenant.
 */
@Injectable()
export class SubaccountsService {
  constructor(
    private readonly subaccounts: SubaccountsRepository,
    private readonly clock: Clock,
  ) {}

  /** @throws validation_error (bank_code, account_number), subaccount_exists */
  async create(ctx: DeveloperContext, input: NewSubaccount): Promise<SubaccountEntity> {
    assertBankAccount(input);
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
      const created = await this.subaccounts.insertIfAbsent(ctx, {
        code: newSubaccountCode(),
        businessName: input.businessName,
        bankCode: input.bankCode,
        accountNumber: input.accountNumber,
        accountName: input.accountName ?? null,
        description: input.description ?? null,
        active: true,
        metadata: input.metadata ?? {},
        createdAt: this.clock.now(),
      });
      if (created) return created;
      // The insert was ignored: either this bank account is registered already, or the code collided.
      const existing = await this.subaccounts.findByBankAccount(ctx, input.bankCode, input.accountNumber);
      if (existing) throw new DomainError('subaccount_exists', `Sub-account ${existing.code} already exists for this bank account.`);
    }
    throw new Error('Could not draw an unused sub-account code');
  }

  /** @throws subaccount_not_found (also for another developer's or the other mode's sub-account) */
  async get(ctx: DeveloperContext, code: string): Promise<SubaccountEntity> {
    const subaccount = await this.subaccounts.findByCode(ctx, code);
    if (!subaccount) throw new DomainError('subaccount_not_found', 'No such sub-account.');
    return subaccount;
  }

  /** Newest first, keyset-paginated. @throws validation_error for a cursor this API did not issue */
  list(ctx: DeveloperContext, filter: SubaccountListFilter): Promise<Page<SubaccountEntity>> {
    return this.subaccounts.list(ctx, filter);
  }

  /**
   * For payments with splits: every code must name an active sub-account of this developer and
   * mode. Another tenant's code is reported exactly like an unknown one. Runs in the caller's
   * transaction when a manager is given.
   * @returns the sub-accounts by code
   * @throws validation_error with one entry per offending position: `splits.<i>.subaccount` (the same dotted form the validation pipe uses)
   */
  async requireActive(ctx: DeveloperContext, codes: string[], manager?: EntityManager): Promise<Map<string, SubaccountEntity>> {
    const distinct = [...new Set(codes)];
    const rows = distinct.length ? await this.subaccounts.findByCodes(ctx, distinct, manager) : [];
    const byCode = new Map(rows.map((row) => [row.code, row]));
    const errors: FieldErrors = {};
    codes.forEach((code, i) => {
      const found = byCode.get(code);
      if (!found) errors[`splits.${i}.subaccount`] = ['no sub-account with this code'];
      else if (!found.active) errors[`splits.${i}.subaccount`] = ['this sub-account is inactive'];
    });
    if (Object.keys(errors).length) throw new DomainError('validation_error', 'The request is invalid.', errors);
    return byCode;
  }
}

function newSubaccountCode(): string {
  let suffix = '';
  for (let i = 0; i < CODE_LENGTH; i++) suffix += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `ACCT_${suffix}`;
}

/** The wire DTO checks the same; repeated here because the domain must not trust its caller. */
function assertBankAccount(input: NewSubaccount): void {
  const errors: FieldErrors = {};
  if (!SUBACCOUNT_BANK_CODE_PATTERN.test(input.bankCode)) errors['bank_code'] = ['bank_code must be a bank code of 3 to 6 digits'];
  if (!NUBAN_PATTERN.test(input.accountNumber)) errors['account_number'] = ['account_number must be a 10-digit NUBAN'];
  if (Object.keys(errors).length) throw new DomainError('validation_error', 'The request is invalid.', errors);
}
