import { createProviderSimulator, type ProviderSimulator } from '@gateway/provider-sim';
import { Amount } from '@gateway/platform';
import { ProviderRejectedError } from './provider-rejected.error';
import type { PaystackHttpProvider } from './paystack/paystack-http.provider';
import { adapterFor, LIVE_SECRET, ngn, silenceProviderLogs, TEST_SECRET, uniqueReference } from './testing/adapter-harness';

describe('PaystackHttpProvider: disputes (over HTTP against the simulator)', () => {
  let sim: ProviderSimulator;
  let provider: PaystackHttpProvider;

  beforeAll(async () => {
    silenceProviderLogs();
    sim = createProviderSimulator({ secretKeys: [TEST_SECRET, LIVE_SECRET], transferDelayMs: 0, autoComplete: false });
    provider = adapterFor(await sim.listen());
  });
  afterAll(() => sim.close());

  async function disputed(amount?: string): Promise<{ reference: string; providerId: string }> {
    const reference = uniqueReference('pay');
    await provider.initializeTransaction('test', { reference, email: 'ada@example.com', amount: ngn('5000.00'), currency: 'NGN' });
    await provider.completeSandboxCheckout('test', reference, 'success');
    const opened = await provider.openSandboxDispute('test', { transactionReference: reference, ...(amount && { amount: ngn(amount) }), reason: 'Not received' });
    return { reference, providerId: opened.providerId };
  }

  const evidence = { customerEmail: 'ada@example.com', customerName: 'Ada Lovelace', customerPhone: '+2348000000000', serviceDetails: 'Delivered in person' };
  const receipt = { content: new TextEncoder().encode('%PDF-1.4 delivery note'), contentType: 'application/pdf', fileName: 'delivery-note.pdf' };

  it('opens with our transaction reference (from transaction.reference) and the camelCase due date', async () => {
    const reference = uniqueReference('pay');
    await provider.initializeTransaction('test', { reference, email: 'ada@example.com', amount: ngn('5000.00'), currency: 'NGN' });
    await provider.completeSandboxCheckout('test', reference, 'success');
    const opened = await provider.openSandboxDispute('test', { transactionReference: reference, amount: ngn('1500.25'), reason: 'Not received' });
    expect(opened).toMatchObject({ transactionReference: reference, status: 'open', currency: 'NGN', reason: 'Not received', resolvedAt: null });
    expect(opened.amount.toString()).toBe('1500.25');
    expect(opened.dueAt).toBeInstanceOf(Date);
  });

  it('evidence alone does not contest: the dispute stays open', async () => {
    const { providerId } = await disputed();
    const recorded = await provider.addDisputeEvidence('test', providerId, evidence);
    expect(recorded.providerEvidenceId).toMatch(/^\d+$/);
    const fetched = await fetch(`${sim.url()}/dispute/${providerId}`, { headers: { authorization: `Bearer ${TEST_SECRET}` } });
    expect(((await fetched.json()) as { data: { status: string } }).data.status).toBe('awaiting-merchant-feedback');
  });

  it('contest: evidence, the document uploaded, resolve declined → under review; the bank declining the chargeback → won', async () => {
    const { reference, providerId } = await disputed('1500.25');
    const contested = await provider.contestDispute('test', providerId, { evidence, document: receipt, message: 'Delivered and signed for' });
    expect(contested).toMatchObject({ providerId, transactionReference: reference, status: 'under_review' });
    const resolved = await provider.resolveSandboxDispute('test', providerId, 'declined');
    expect(resolved.status).toBe('won');
    expect(resolved.resolvedAt).toBeInstanceOf(Date);
  });

  it('accept: the document uploaded, resolve merchant-accepted with the refund → lost, resolved', async () => {
    const { providerId } = await disputed();
    const accepted = await provider.acceptDispute('test', providerId, { refundAmount: ngn('5000.00'), message: 'Refunding in full', document: receipt });
    expect(accepted).toMatchObject({ status: 'lost', resolvedAt: expect.any(Date) });
    expect(accepted.amount.toString()).toBe('5000.00');
  });

  it('resolve without an uploaded document, or declined without evidence, is refused by the provider', async () => {
    const { providerId } = await disputed();
    const upload = await provider.disputeUploadUrl('test', providerId, 'note.pdf');
    expect(upload.uploadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/uploads\//);
    const notUploaded = provider.resolveDispute('test', providerId, { resolution: 'declined', message: 'No', refundAmount: Amount.zero(), uploadedFileName: upload.fileName });
    await expect(notUploaded).rejects.toBeInstanceOf(ProviderRejectedError);
    await fetch(upload.uploadUrl, { method: 'PUT', body: receipt.content });
    const noEvidence = provider.resolveDispute('test', providerId, { resolution: 'declined', message: 'No', refundAmount: Amount.zero(), uploadedFileName: upload.fileName });
    await expect(noEvidence).rejects.toMatchObject({ providerStatus: 400, providerMessage: 'Evidence is required' });
  });

  it('merchant-accepted by the bank = lost; a dispute on an unknown transaction is refused; an unknown dispute is a not-found rejection', async () => {
    const { providerId } = await disputed();
    expect((await provider.resolveSandboxDispute('test', providerId, 'merchant-accepted')).status).toBe('lost');
    await expect(provider.openSandboxDispute('test', { transactionReference: uniqueReference('missing') })).rejects.toBeInstanceOf(ProviderRejectedError);
    await expect(provider.addDisputeEvidence('test', '424242', evidence)).rejects.toMatchObject({ isNotFound: true });
  });
});
