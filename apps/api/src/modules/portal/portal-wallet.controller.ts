import { Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery } from '@nestjs/swagger';
import { DEFAULT_PAGE_SIZE, LEDGER_ENTRY_TYPES, LedgerEntryResponse, LedgerVerificationResponse, ListLedgerEntriesQuery, VerifyLedgerQuery, WalletBalanceResponse } from '@gateway/contracts';
import { LedgerService, toLedgerEntryResponse, toLedgerVerificationResponse, toWalletBalanceResponse } from '@gateway/domain/ledger';
import { CURRENCIES } from '@gateway/platform';
import { ApiContract } from '../../http/openapi.decorators';
import { ListResponse } from '../../http/list-response';
import { currencyOf, endOfDayIfDateOnly } from '../wallet/wallet-query';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';

/** The account's wallet in the session's mode: balances and ledger, as the merchant API shows them. */
@PortalController('wallet')
export class PortalWalletController {
  constructor(private readonly ledger: LedgerService) {}

  @Get('balance')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({
    summary: 'Wallet balances, one per currency',
    description: `Every supported currency (${CURRENCIES.join(', ')}), in that order: \`{available_balance, pending_balance, reserved_balance, total_balance, currency}\` as \`GET /api/v1/wallet/balance\`; a currency never used reads as zeros.`,
  })
  @ApiContract({ response: [WalletBalanceResponse], errors: ['authentication_failed', 'insufficient_role'] })
  async balances(@PortalSession() session: PortalSessionContext): Promise<WalletBalanceResponse[]> {
    const ctx = accountContext(session);
    return Promise.all(CURRENCIES.map(async (currency) => toWalletBalanceResponse(await this.ledger.balance(ctx, currency))));
  }

  @Get('ledger')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({
    summary: 'Ledger entries of the wallet',
    description: 'As `GET /api/v1/wallet/ledger`: cursor-paginated, newest first. Filters: `currency`, `type`, `reference`, `from`/`to` (ISO 8601, inclusive; a date alone as `to` includes that whole day).',
  })
  @ApiQuery({ name: 'type', required: false, enum: LEDGER_ENTRY_TYPES })
  @ApiQuery({ name: 'currency', required: false, enum: CURRENCIES })
  @ApiContract({ list: LedgerEntryResponse, errors: ['validation_error', 'invalid_currency', 'authentication_failed', 'insufficient_role'] })
  async entries(@PortalSession() session: PortalSessionContext, @Query() query: ListLedgerEntriesQuery): Promise<ListResponse<LedgerEntryResponse>> {
    const page = await this.ledger.listEntries(accountContext(session), {
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
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({
    summary: 'Verify the ledger hash chains',
    description:
      'As `GET /api/v1/wallet/ledger/verify`: recomputes every entry\'s hash and link, `currency` (every currency when omitted). `{verified, currency, entries_checked, chains, first_broken}`.',
  })
  @ApiQuery({ name: 'currency', required: false, enum: CURRENCIES })
  @ApiContract({ response: LedgerVerificationResponse, errors: ['validation_error', 'invalid_currency', 'authentication_failed', 'insufficient_role'] })
  async verify(@PortalSession() session: PortalSessionContext, @Query() query: VerifyLedgerQuery): Promise<LedgerVerificationResponse> {
    return toLedgerVerificationResponse(await this.ledger.verifyChains(accountContext(session), currencyOf(query.currency)));
  }
}
