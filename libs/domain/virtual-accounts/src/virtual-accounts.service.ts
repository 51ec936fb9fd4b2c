import { Inject, Injectable } from '@nestjs/common';
import { CustomersService, type Customer } from '@gateway/domain/customers';
import { amountLimits } from '@gateway/domain/payments';
import { PaymentProvider } from '@gateway/provider';
import { Amount, APP_CONFIG, type AppConfig, Clock, type DeveloperContext, DomainError, InvalidAmountError, type Page, timeOrderedHex, timeOrderedUuid } from '@gateway/platform';
import type { VirtualAccountDepositEntity, VirtualAccountEntity } from './virtual-account.entities';
import { VirtualAccountDepositsService } from './virtual-account-deposits.service';
import { accountConflict, type PageQuery, type VirtualAccountListFilter, VirtualAccountsRepository } from './virtual-accounts.repository';

/** Dedicated accounts are naira accounts (the provider's capability says so). */
const CURRENCY = 'NGN';

export interface SandboxDeposit {
  amount: number;
  senderName?: string;
}

/**
 * Dedicated virtual accounts (table `virtual_accounts`): a bank account number per customer,
 * opened at the provider, whose deposits credit the wallet (VirtualAccountDepositsService). At
 * most one active account per customer — a partial unique index decides races; deactivating one
 * lets the customer have a new one.
 */
@Injectable()
export class VirtualAccountsService {
  constructor(
    private readonly repository: VirtualAccountsRepository,
    private readonly deposits: VirtualAccountDepositsService,
    private readonly customers: CustomersService,
    private readonly provider: PaymentProvider,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Opens the customer's account at the provider. The provider needs the customer's first and last
   * name (the customer's `name`, two words at least) and phone: checked first, nothing sent.
   * @throws customer_not_found, capability_not_supported, virtual_account_exists, validation_error, gateway_timeout, provider_error
   */
  async create(ctx: DeveloperContext, customerReference: string): Promise<VirtualAccountEntity> {
    const customer = await this.customers.get(ctx, customerReference);
    this.provider.capabilities(ctx.mode).require('dedicated_accounts', CURRENCY);
    if (await this.repository.findActiveOfCustomer(ctx, customer.id)) throw exists();
    const person = holderOf(customer);
    // Repeatable at the provider (same e-mail, same account): a retry after a timeout gets the account already opened.
    const opened = await this.provider.createDedicatedAccount(ctx.mode, { customerEmail: customer.email, ...person });
    // The provider keys its customers by e-mail across every merchant of the gateway: a number
    // another merchant held (even deactivated) must never receive this merchant's customers'
    // money, nor theirs this one's. Refused without saying whose it is.
    if (await this.repository.numberHeldByAnotherDeveloper(ctx, opened.accountNumber)) {
      throw new DomainError('virtual_account_exists', "The provider already gave this e-mail address a dedicated account; open this customer's account with an e-mail address of their own.");
    }
    const now = this.clock.now();
    try {
      return await this.repository.insert({
        id: timeOrderedUuid(),
        developerId: ctx.developerId,
        mode: ctx.mode,
        publicId: `va_${timeOrderedHex(12)}`,
        customerId: customer.id,
        customerReference: customer.reference,
        accountNumber: opened.accountNumber,
        accountName: opened.accountName,
        bankName: opened.bankName,
        currency: CURRENCY,
        status: 'active',
        providerAccountId: opened.providerId,
        providerCustomerCode: opened.providerCustomerCode,
        createdAt: now,
        deactivatedAt: null,
        updatedAt: now,
      });
    } catch (error) {
      const conflict = accountConflict(error);
      if (conflict === 'customer') throw exists(); // a concurrent create won
      if (conflict === 'number') {
        // The provider keys its customers by e-mail: another active account already holds this number.
        throw new DomainError('virtual_account_exists', "An active virtual account already uses the provider's account for this customer's e-mail.");
      }
      throw error;
    }
  }

  /** @throws virtual_account_not_found (also for another developer's or the other mode's account) */
  async get(ctx: DeveloperContext, id: string): Promise<VirtualAccountEntity> {
    const account = await this.repository.findByPublicId(ctx, id);
    if (!account) throw new DomainError('virtual_account_not_found', 'No such virtual account.');
    return account;
  }

  list(ctx: DeveloperContext, filter: VirtualAccountListFilter): Promise<Page<VirtualAccountEntity>> {
    return this.repository.list(ctx, filter);
  }

  /**
   * Deactivates the account in the gateway: the customer may then get a new one. The provider's
   * port has no deactivation yet, so money still sent to the number is credited (never ignored).
   * @throws virtual_account_not_found, invalid_state (already inactive)
   */
  async deactivate(ctx: DeveloperContext, id: string): Promise<VirtualAccountEntity> {
    const account = await this.get(ctx, id);
    const moved = await this.repository.transition(ctx, account.id, 'deactivate', this.clock.now());
    if (!moved) throw new DomainError('invalid_state', `The virtual account is ${account.status}; only an active one can be deactivated.`, { status: [account.status] });
    return moved;
  }

  /** @throws virtual_account_not_found */
  async listDeposits(ctx: DeveloperContext, id: string, query: PageQuery): Promise<{ account: VirtualAccountEntity; page: Page<VirtualAccountDepositEntity> }> {
    const account = await this.get(ctx, id);
    return { account, page: await this.deposits.listOfAccount(ctx, account.id, query) };
  }

  /**
   * Test mode: a bank transfer into the account through the provider's sandbox. The provider then
   * sends its callback; the deposit is also recorded here from the provider's answer, so the
   * response shows it credited (the callback then changes nothing).
   * @throws test_mode_required, virtual_account_not_found, validation_error, gateway_timeout, provider_error
   */
  async sandboxDeposit(ctx: DeveloperContext, id: string, input: SandboxDeposit): Promise<{ account: VirtualAccountEntity; deposit: VirtualAccountDepositEntity }> {
    if (ctx.mode !== 'test') throw new DomainError('test_mode_required', 'Sandbox controls work with test keys only.');
    const account = await this.get(ctx, id);
    const amount = this.parseDepositAmount(input.amount);
    const transaction = await this.provider.depositToDedicatedAccount(ctx.mode, { accountNumber: account.accountNumber, amount, senderName: input.senderName });
    await this.deposits.onProviderDeposit(ctx.mode, transaction, ctx);
    const recorded = await this.deposits.findRecorded(ctx.mode, transaction.providerId);
    if (!recorded || recorded.developerId !== ctx.developerId) throw new DomainError('provider_error', 'The provider did not confirm the deposit; its callback will credit it.');
    return { account, deposit: recorded };
  }

  /** @throws validation_error */
  private parseDepositAmount(input: number): Amount {
    try {
      const amount = Amount.parse(input);
      if (!amount.isPositive()) throw new InvalidAmountError('out-of-range', 'amount must be greater than 0');
      const { max } = amountLimits(this.config);
      if (amount.gt(max)) throw new InvalidAmountError('out-of-range', `amount must be at most ${max.toString()}`);
      return amount;
    } catch (error) {
      if (error instanceof InvalidAmountError) throw new DomainError('validation_error', 'The amount is not valid.', { amount: [error.message] });
      throw error;
    }
  }
}

function exists(): DomainError {
  return new DomainError('virtual_account_exists', 'This customer already has an active virtual account; deactivate it first.');
}

/**
 * The provider's requirements, from what customers store: a `name` of two words at least (first
 * name, then the rest as last name) and a `phone`. Each missing one is named.
 * @throws validation_error
 */
function holderOf(customer: Customer): { firstName: string; lastName: string; phone: string } {
  const words = (customer.name ?? '').trim().split(/\s+/).filter(Boolean);
  const phone = customer.phone?.trim() ?? '';
  const errors: Record<string, string[]> = {};
  if (words.length < 2) errors['customer.name'] = ['the customer needs a first and a last name for a virtual account'];
  if (!phone) errors['customer.phone'] = ['the customer needs a phone number for a virtual account'];
  if (Object.keys(errors).length > 0) throw new DomainError('validation_error', "The provider needs the customer's first name, last name and phone for a virtual account.", errors);
  return { firstName: words[0], lastName: words.slice(1).join(' '), phone };
}
