import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  DEFAULT_PAGE_SIZE,
  LEDGER_ENTRY_TYPES,
  LedgerEntryResponse,
  LedgerVerificationResponse,
  MAX_PAGE_SIZE,
  ListLedgerEntriesQuery,
  VerifyLedgerQuery,
  WalletBalanceQuery,
  WalletBalanceResponse,
} from '@gateway/contracts';
import { LedgerService, toLedgerEntryResponse, toLedgerVerificationResponse, toWalletBalanceResponse } from '@gateway/domain/ledger';
import { CURRENCIES, type DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';
import { currencyOf, endOfDayIfDateOnly } from './wallet-query';

const BALANCE_SHAPE =
  '`data`: `{available_balance, pending_balance, reserved_balance, total_balance, currency}` — JSON numbers in the major unit; ' +
  '`total_balance` = available + pending + reserved. `reserved_balance` holds payouts in flight. A currency never used reads as zeros.';

const ENTRY_SHAPE =
  'Each entry: `{id, type, amount, direction, balance_type, currency, reference, description, created_at}`. `type` is one of ' +
  '`credit` (payment proceeds), `debit` (refund, transfer, withdrawal, split share), `fee` (platform or provider fee), `settlement` ' +
  '(settled to bank), `virtual_account_credit`; `amount` is always positive and `direction` (`credit`|`debit`) says which way it ' +
  'moved the wallet balance named by `balance_type` (`available`|`pending`|`reserved`); `reference` is the public reference of ' +
  'the payment, refund or transfer. Entries are immutable: corrections are new entries.';

const VERIFY_DESCRIPTION =
  'Recomputes the hash of every entry of the wallet (system lines included) and checks each follows the one before it in its chain ' +
  '(16 chains per wallet, one per balance slot) and that each chain ends at the entry recorded last — so an entry edited, removed, ' +
  'inserted or reordered outside the gateway is detected. `data`: `{verified, currency, entries_checked, chains, first_broken}`; ' +
  '`first_broken` is null, or `{currency, chain, reason, entry_id, reference}` with `reason` one of `hash_mismatch`, ' +
  '`prev_hash_mismatch`, `chain_head_mismatch`. The walk reads one snapshot and stops at the first break. The hashing is ' +
  'documented so it can be verified independently (docs/ledger.md).';

@ApiTags('Wallet')
@Controller('wallet')
export class WalletController {
  constructor(private readonly ledger: LedgerService) {}

  @Get('balance')
  @Authenticated({ scope: 'wallet:read' })
  @ApiOperation({ summary: 'Wallet balance', description: `\`?currency=\` one of ${CURRENCIES.join(', ')} (default NGN). ${BALANCE_SHAPE}` })
  @ApiQuery({ name: 'currency', required: false, enum: CURRENCIES })
  @ApiContract({ response: WalletBalanceResponse, errors: ['validation_error', 'invalid_currency'] })
  async balance(@Tenant() ctx: DeveloperContext, @Query() query: WalletBalanceQuery): Promise<WalletBalanceResponse> {
    return toWalletBalanceResponse(await this.ledger.balance(ctx, currencyOf(query.currency) ?? 'NGN'));
  }

  @Get('ledger')
  @Authenticated({ scope: 'wallet:read' })
  @ApiOperation({
    summary: 'Ledger entries of the wallet',
    description: `Cursor-paginated, newest first. Filters: \`currency\` (all when omitted), \`type\`, \`reference\`, \`from\`/\`to\` (ISO 8601, inclusive; a date alone as \`to\` includes that whole day). ${ENTRY_SHAPE}`,
  })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE } })
  @ApiQuery({ name: 'cursor', required: false, description: '`meta.next_cursor` of the previous page' })
  @ApiQuery({ name: 'currency', required: false, enum: CURRENCIES })
  @ApiQuery({ name: 'type', required: false, enum: LEDGER_ENTRY_TYPES })
  @ApiQuery({ name: 'reference', required: false, description: 'public reference of a payment, refund, transfer…' })
  @ApiQuery({ name: 'from', required: false, description: 'ISO 8601, inclusive' })
  @ApiQuery({ name: 'to', required: false, description: 'ISO 8601, inclusive' })
  @ApiContract({ list: LedgerEntryResponse, errors: ['validation_error', 'invalid_currency'] })
  async ledgerEntries(@Tenant() ctx: DeveloperContext, @Query() query: ListLedgerEntriesQuery): Promise<ListResponse<LedgerEntryResponse>> {
    const page = await this.ledger.listEntries(ctx, {
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      cursor: query.cursor,
      currency: currencyOf(query.currency),
      type: query.type,
      reference: query.reference,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? endOfDayIfDateOnly(query.to) : undefined,
    });
    return ListResponse.of(page, toLedgerEntryResponse);
  }

  @Get('ledger/verify')
  @Authenticated({ scope: 'wallet:read' })
  @ApiOperation({ summary: 'Verify the ledger hash chains', description: VERIFY_DESCRIPTION })
  @ApiQuery({ name: 'currency', required: false, enum: CURRENCIES, description: 'the wallet to verify; every currency when omitted' })
  @ApiContract({ response: LedgerVerificationResponse, errors: ['validation_error', 'invalid_currency'] })
  async verifyLedger(@Tenant() ctx: DeveloperContext, @Query() query: VerifyLedgerQuery): Promise<LedgerVerificationResponse> {
    return toLedgerVerificationResponse(await this.ledger.verifyChains(ctx, currencyOf(query.currency)));
  }
}
