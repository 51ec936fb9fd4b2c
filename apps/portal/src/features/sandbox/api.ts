import { portalApi, unwrap, type Schema } from '../../shared/api';

export type TestClock = Schema<'TestClockResponse'>;
export type RulesRun = NonNullable<TestClock['rules_run']>;
export type Dispute = Schema<'DisputeResponse'>;
export type Deposit = Schema<'VirtualAccountDepositResponse'>;
export type ScanResult = Schema<'SandboxScanResponse'>;
export type CheckoutOutcome = NonNullable<Schema<'SandboxCompleteCheckoutRequest'>['outcome']>;
export type DisputeOutcome = Schema<'SandboxResolveDisputeRequest'>['outcome'];

/** The scheduler scans the sandbox can run now (`POST /api/portal/sandbox/scans/{scan}/run`). */
export const SCANS = [
  { scan: 'abandoned-payments', label: 'Abandoned payments', description: 'Pending payments older than 24 hours become abandoned.' },
  { scan: 'scheduled-charges', label: 'Scheduled charges', description: 'Scheduled payments whose charge time has come are charged.' },
  { scan: 'payment-intent-expiry', label: 'Hold expiry', description: 'Payment intents whose 7-day hold has lapsed expire and release the hold.' },
] as const;
export type ScanName = (typeof SCANS)[number]['scan'];

export function completeCheckout(reference: string, outcome: CheckoutOutcome): Promise<Schema<'PaymentResponse'>> {
  return unwrap(portalApi.POST('/api/portal/sandbox/payments/{reference}/complete', { params: { path: { reference } }, body: { outcome } }));
}

export function runScan(scan: ScanName): Promise<ScanResult> {
  const body = {};
  switch (scan) {
    case 'abandoned-payments':
      return unwrap(portalApi.POST('/api/portal/sandbox/scans/abandoned-payments/run', { body }));
    case 'scheduled-charges':
      return unwrap(portalApi.POST('/api/portal/sandbox/scans/scheduled-charges/run', { body }));
    case 'payment-intent-expiry':
      return unwrap(portalApi.POST('/api/portal/sandbox/scans/payment-intent-expiry/run', { body }));
  }
}

export function openDispute(paymentReference: string): Promise<Dispute> {
  return unwrap(portalApi.POST('/api/portal/sandbox/payments/{reference}/dispute', { params: { path: { reference: paymentReference } } }));
}

export function resolveDispute(reference: string, outcome: DisputeOutcome): Promise<Dispute> {
  return unwrap(portalApi.POST('/api/portal/sandbox/disputes/{reference}/resolve', { params: { path: { reference } }, body: { outcome } }));
}

export function deposit(virtualAccountId: string, amount: number, senderName?: string): Promise<Deposit> {
  return unwrap(
    portalApi.POST('/api/portal/sandbox/virtual-accounts/{id}/deposits', {
      params: { path: { id: virtualAccountId } },
      body: { amount, ...(senderName ? { sender_name: senderName } : {}) },
    }),
  );
}

export function getClock(signal?: AbortSignal): Promise<TestClock> {
  return unwrap(portalApi.GET('/api/portal/sandbox/clock', { signal }));
}

export function advanceClock(seconds: number): Promise<TestClock> {
  return unwrap(portalApi.POST('/api/portal/sandbox/clock/advance', { body: { seconds } }));
}

export function resetClock(): Promise<TestClock> {
  return unwrap(portalApi.POST('/api/portal/sandbox/clock/reset'));
}
