import type { Mode } from '@gateway/contracts';
import { type Currency, DomainError } from '@gateway/platform';
import type {
  CreateTransferRecipientInput,
  FinalizeTransferInput,
  InitiateTransferInput,
  ProviderBank,
  ProviderRecipientType,
  ProviderResolvedAccount,
  ProviderTransfer,
  ProviderTransferRecipient,
  ResolveAccountInput,
} from '../provider.types';
import { ProviderRejectedError } from '../provider-rejected.error';
import type { PaystackHttpClient } from './paystack-http-client';
import { toProviderBank, toProviderTransfer, toProviderTransferRecipient } from './paystack.mapper';
import { asObject, requiredString, toWireMinor, unexpected, type WireObject } from './paystack-wire';

/** Bank-account recipient type per currency (guide "Creating Transfer Recipients"). */
const BANK_ACCOUNT_TYPE: Readonly<Record<string, ProviderRecipientType>> = { NGN: 'nuban', GHS: 'ghipss', ZAR: 'basa', KES: 'kepss' };

/**
 * Transfer references (API reference, Initiate Transfer, `reference`): "a lowercase alphanumeric
 * string with only -,_ symbols allowed", at least 16 characters. Paystack refuses others.
 */
const TRANSFER_REFERENCE = /^[a-z0-9_-]{16,100}$/;

/** Every bank of a currency: `GET /bank?currency=…`, following `meta.next` (cursor pagination). */
export async function listBanks(http: PaystackHttpClient, mode: Mode, currency: Currency, pageSize: number): Promise<ProviderBank[]> {
  const banks: ProviderBank[] = [];
  const seen = new Set<string>();
  let next: string | undefined;
  do {
    const page = await http.sendForEnvelope(mode, {
      operation: 'bank.list',
      method: 'GET',
      path: '/bank',
      query: { currency, use_cursor: true, perPage: pageSize, next },
    });
    if (!Array.isArray(page.data)) throw unexpected('banks');
    banks.push(...page.data.map(toProviderBank));
    next = nextCursor(page.meta);
    // A cursor seen before would page forever.
    if (next !== undefined && seen.has(next)) throw unexpected('banks cursor');
    if (next !== undefined) seen.add(next);
  } while (next !== undefined);
  return banks;
}

function nextCursor(meta: unknown): string | undefined {
  if (meta === null || meta === undefined) return undefined;
  const next = asObject(meta, 'banks meta')['next'];
  if (next === null || next === undefined || next === '') return undefined;
  if (typeof next !== 'string') throw unexpected('banks cursor');
  return next;
}

/** "Account number should be numeric" (PaystackOSS/openapi errors/api-errors.json, Verification). */
const ACCOUNT_NUMBER = /^\d{1,20}$/;
/** Bank codes as `GET /bank` lists them: digits for banks, letters for telcos (`MPESA`, `MTN`). */
const BANK_CODE = /^[A-Za-z0-9]{1,20}$/;
/** Paystack's answer to an account it cannot resolve ("Could not resolve account name…"). */
const UNRESOLVABLE = 422;

/**
 * `GET /bank/resolve?account_number=…&bank_code=…` (Resolve Account Number). The answer is the
 * bank's name for the account; it must be about the number asked (another one is a
 * `provider_error`: a name must never be shown for the wrong account). Paystack refuses an account
 * it cannot resolve with a 422: that is null. Another explained 400 is a `ProviderRejectedError`;
 * a 404 is a path the provider does not have (`provider_error`), never "cannot resolve".
 */
export async function resolveAccount(http: PaystackHttpClient, mode: Mode, input: ResolveAccountInput): Promise<ProviderResolvedAccount | null> {
  const fieldErrors: Record<string, string[]> = {};
  if (!ACCOUNT_NUMBER.test(input.accountNumber)) fieldErrors['account_number'] = ['must be digits only'];
  if (!BANK_CODE.test(input.bankCode)) fieldErrors['bank_code'] = ['must be a bank code from the list of banks'];
  if (Object.keys(fieldErrors).length > 0) {
    throw new DomainError('validation_error', 'The account number must be digits and the bank code a listed bank code.', fieldErrors);
  }
  let data: unknown;
  try {
    data = await http.send(mode, {
      operation: 'bank.resolve',
      method: 'GET',
      path: '/bank/resolve',
      query: { account_number: input.accountNumber, bank_code: input.bankCode },
      refusals: [400, UNRESOLVABLE],
    });
  } catch (error) {
    if (error instanceof ProviderRejectedError && error.providerStatus === UNRESOLVABLE) return null;
    throw error;
  }
  const wire = asObject(data, 'resolved account');
  if (requiredString(wire, 'account_number') !== input.accountNumber) throw unexpected('account_number');
  return { accountNumber: input.accountNumber, accountName: requiredString(wire, 'account_name') };
}

/**
 * A bank-account recipient of the currency's type (nuban NGN, ghipss GHS, basa ZAR, kepss KES), or
 * the type given (`mobile_money` for a GHS or KES wallet). A currency with no recipient type
 * (USD, GBP) is `capability_not_supported`, nothing sent.
 */
export async function createRecipient(http: PaystackHttpClient, mode: Mode, input: CreateTransferRecipientInput): Promise<ProviderTransferRecipient> {
  const type = input.type ?? BANK_ACCOUNT_TYPE[input.currency];
  if (type === undefined) {
    throw new DomainError('capability_not_supported', `Transfers in ${input.currency} are not supported by this gateway's payment provider.`, {
      currency: [`transfers are not supported in ${input.currency}`],
    });
  }
  const data = await http.send(mode, {
    operation: 'transferrecipient.create',
    method: 'POST',
    path: '/transferrecipient',
    body: { type, name: input.name, account_number: input.accountNumber, bank_code: input.bankCode, currency: input.currency },
  });
  return toProviderTransferRecipient(data);
}

/**
 * Pays out under our reference. Paystack may answer `status: "otp"` (the account requires an
 * OTP for transfers): that is `otp_required`, to be finalized. A reused reference is refused with
 * `duplicate_reference`, also for our own retry after a timeout: the transfer under the
 * reference is then verified, and answered when it is this very transfer (same amount, currency
 * and recipient); anything else keeps the refusal.
 * @throws validation_error (nothing sent) for a reference Paystack would refuse
 */
export async function initiateTransfer(http: PaystackHttpClient, mode: Mode, input: InitiateTransferInput): Promise<ProviderTransfer> {
  if (!TRANSFER_REFERENCE.test(input.reference)) {
    throw new DomainError('validation_error', 'A transfer reference must be 16 to 100 lowercase letters, digits, - or _.', {
      reference: ['must be 16 to 100 lowercase letters, digits, - or _'],
    });
  }
  try {
    const data = await http.send(mode, {
      operation: 'transfer.initiate',
      method: 'POST',
      path: '/transfer',
      body: {
        source: 'balance',
        reference: input.reference,
        amount: toWireMinor(input.amount),
        currency: input.currency,
        recipient: input.recipientCode,
        ...(input.reason !== undefined && { reason: input.reason }),
      },
    });
    return toProviderTransfer(data);
  } catch (error) {
    if (!(error instanceof ProviderRejectedError) || !error.isDuplicateReference) throw error;
    const earlier = await fetchTransfer(http, mode, input.reference);
    if (earlier === null || !isSameTransfer(earlier, input)) throw error;
    return toProviderTransfer(earlier);
  }
}

/** `POST /transfer/finalize_transfer` with the OTP Paystack sent to the business. */
export async function finalizeTransfer(http: PaystackHttpClient, mode: Mode, input: FinalizeTransferInput): Promise<ProviderTransfer> {
  const data = await http.send(mode, {
    operation: 'transfer.finalize',
    method: 'POST',
    path: '/transfer/finalize_transfer',
    body: { transfer_code: input.transferCode, otp: input.otp },
  });
  return toProviderTransfer(data);
}

export async function verifyTransfer(http: PaystackHttpClient, mode: Mode, reference: string): Promise<ProviderTransfer | null> {
  const data = await fetchTransfer(http, mode, reference);
  return data === null ? null : toProviderTransfer(data);
}

function fetchTransfer(http: PaystackHttpClient, mode: Mode, reference: string): Promise<unknown | null> {
  return http.sendOrNull(mode, { operation: 'transfer.verify', method: 'GET', path: `/transfer/verify/${encodeURIComponent(reference)}` });
}

/** Verify Transfer carries the recipient object (`recipient.recipient_code`). */
function isSameTransfer(data: unknown, input: InitiateTransferInput): boolean {
  const transfer = toProviderTransfer(data);
  const recipient = asObject(data, 'transfer')['recipient'];
  const recipientCode = recipient !== null && typeof recipient === 'object' ? (recipient as WireObject)['recipient_code'] : undefined;
  return transfer.amount.equals(input.amount) && transfer.currency === input.currency && (recipientCode === undefined || recipientCode === input.recipientCode);
}
