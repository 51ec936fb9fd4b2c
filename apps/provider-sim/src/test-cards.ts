/**
 * The test cards the simulated provider recognises. Each card has a fixed,
 * documented behaviour so tests (and humans on the hosted checkout page) can
 * drive every payment path deterministically. All numbers pass the Luhn check.
 *
 * Documented in docs/provider-simulator.md — keep both in sync.
 */

/** What the issuer answers when the card is charged. */
export type ChargeOutcome = 'success' | 'declined' | 'insufficient_funds';

export type CardBrand = 'visa' | 'mastercard' | 'verve';

export interface TestCard {
  number: string;
  brand: CardBrand;
  /** Short label shown on the checkout page. */
  label: string;
  /** What happens, in one sentence. */
  description: string;
  expMonth: string;
  expYear: string;
  cvv: string;
  /** Issuer answer for the first payment on hosted checkout (or /sim/transactions/:reference/complete). */
  checkoutOutcome: ChargeOutcome;
  /** Whether a successful checkout yields an authorization that can be charged again. */
  reusable: boolean;
  /** Issuer answer for later merchant-initiated charges (charge_authorization, reserve_authorization). */
  recurringOutcome: ChargeOutcome;
}

const COMMON = { expMonth: '12', expYear: '2030', cvv: '408' } as const;

export const TEST_CARDS: readonly TestCard[] = [
  {
    ...COMMON,
    number: '4084084084084081',
    brand: 'visa',
    label: 'Visa •••• 4081 — succeeds',
    description: 'Payment succeeds; the authorization is reusable and later charges succeed.',
    checkoutOutcome: 'success',
    reusable: true,
    recurringOutcome: 'success',
  },
  {
    ...COMMON,
    number: '4000000000000002',
    brand: 'visa',
    label: 'Visa •••• 0002 — declined',
    description: 'The issuer declines the payment ("Declined").',
    checkoutOutcome: 'declined',
    reusable: false,
    recurringOutcome: 'declined',
  },
  {
    ...COMMON,
    number: '4000000000009995',
    brand: 'visa',
    label: 'Visa •••• 9995 — insufficient funds',
    description: 'The issuer declines the payment for lack of funds ("Insufficient Funds").',
    checkoutOutcome: 'insufficient_funds',
    reusable: false,
    recurringOutcome: 'insufficient_funds',
  },
  {
    ...COMMON,
    number: '5060990580000212',
    brand: 'verve',
    label: 'Verve •••• 0212 — succeeds, not reusable',
    description: 'Payment succeeds but the authorization is not reusable (cannot be charged again).',
    checkoutOutcome: 'success',
    reusable: false,
    recurringOutcome: 'declined',
  },
  {
    ...COMMON,
    number: '5399838383838381',
    brand: 'mastercard',
    label: 'Mastercard •••• 8381 — succeeds, later charges lack funds',
    description:
      'Payment succeeds with a reusable authorization, but every later charge or hold on it fails with "Insufficient Funds".',
    checkoutOutcome: 'success',
    reusable: true,
    recurringOutcome: 'insufficient_funds',
  },
];

/** The card the simulator uses when a control endpoint asks for an outcome rather than a card. */
export const CARD_FOR_OUTCOME: Record<ChargeOutcome, TestCard> = {
  success: TEST_CARDS[0],
  declined: TEST_CARDS[1],
  insufficient_funds: TEST_CARDS[2],
};

/** Paystack's `gateway_response` text for each issuer answer. */
export const GATEWAY_RESPONSE: Record<ChargeOutcome, string> = {
  success: 'Approved',
  declined: 'Declined',
  insufficient_funds: 'Insufficient Funds',
};

export function findTestCard(number: string): TestCard | undefined {
  const digits = number.replace(/[\s-]/g, '');
  return TEST_CARDS.find((card) => card.number === digits);
}

export function isChargeOutcome(value: unknown): value is ChargeOutcome {
  return value === 'success' || value === 'declined' || value === 'insufficient_funds';
}
