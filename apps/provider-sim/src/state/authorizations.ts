import type { TestCard } from '../test-cards';

/** Details of the bank transfer behind a dedicated-account deposit. */
export interface BankTransferDetails {
  senderName: string;
  senderBank: string;
  senderAccountNumber: string;
  receiverAccountNumber: string;
  receiverBank: string;
  narration: string;
}

/**
 * What Paystack calls an "authorization": the payment instrument behind a
 * successful charge. Card authorizations remember the test card so later
 * merchant-initiated charges follow that card's documented behaviour.
 */
export interface AuthorizationRecord {
  authorizationCode: string;
  /** The customer the authorization belongs to; charging it for another email is refused. */
  email: string;
  customerCode: string;
  channel: 'card' | 'dedicated_nuban';
  bin: string;
  last4: string;
  expMonth: string;
  expYear: string;
  cardType: string;
  brand: string;
  bank: string;
  reusable: boolean;
  /** Stable per card and account, so the merchant can recognise the same card across authorizations. */
  signature: string | null;
  card: TestCard | null;
  bankTransfer: BankTransferDetails | null;
}

export class AuthorizationStore {
  private readonly byCode = new Map<string, AuthorizationRecord>();

  add(authorization: AuthorizationRecord): AuthorizationRecord {
    this.byCode.set(authorization.authorizationCode, authorization);
    return authorization;
  }

  find(authorizationCode: string): AuthorizationRecord | undefined {
    return this.byCode.get(authorizationCode);
  }
}
