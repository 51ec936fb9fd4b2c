/** A customer of one account (secret key). The same email always maps to the same customer. */
export interface CustomerRecord {
  id: number;
  customerCode: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  createdAt: Date;
}

export class CustomerStore {
  private readonly byCode = new Map<string, CustomerRecord>();
  private readonly byEmail = new Map<string, CustomerRecord>();

  add(customer: CustomerRecord): CustomerRecord {
    this.byCode.set(customer.customerCode, customer);
    this.byEmail.set(customer.email, customer);
    return customer;
  }

  findByCode(customerCode: string): CustomerRecord | undefined {
    return this.byCode.get(customerCode);
  }

  findByEmail(email: string): CustomerRecord | undefined {
    return this.byEmail.get(email);
  }

  findById(id: number): CustomerRecord | undefined {
    for (const customer of this.byCode.values()) if (customer.id === id) return customer;
    return undefined;
  }
}
