import type { Bank } from '../banks';

/** A dedicated virtual account (NUBAN) assigned to one customer; deposits into it become transactions. */
export interface DedicatedAccountRecord {
  id: number;
  accountNumber: string;
  accountName: string;
  bank: Bank;
  customerCode: string;
  createdAt: Date;
}

export class DedicatedAccountStore {
  private readonly byNumber = new Map<string, DedicatedAccountRecord>();

  add(account: DedicatedAccountRecord): DedicatedAccountRecord {
    this.byNumber.set(account.accountNumber, account);
    return account;
  }

  findByNumber(accountNumber: string): DedicatedAccountRecord | undefined {
    return this.byNumber.get(accountNumber);
  }

  /** One account per customer per bank: asking again returns the one already assigned. */
  findForCustomer(customerCode: string, bankSlug: string): DedicatedAccountRecord | undefined {
    for (const account of this.byNumber.values()) {
      if (account.customerCode === customerCode && account.bank.slug === bankSlug) return account;
    }
    return undefined;
  }
}
