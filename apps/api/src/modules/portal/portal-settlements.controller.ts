import { Body, Get, HttpCode, Post, Put, Query, Req } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  DEFAULT_PAGE_SIZE,
  ListSettlementsQuery,
  RequestSettlementRequest,
  SetAutoSettlementRequest,
  SetSettlementAccountRequest,
  SettlementResponse,
  SettlementSettingsResponse,
} from '@gateway/contracts';
import { type Developer, DevelopersService } from '@gateway/domain/developers';
import { parseRequestCurrency } from '@gateway/domain/payments';
import { SettlementsService, toSettlementResponse } from '@gateway/domain/settlements';
import type { FastifyRequest } from 'fastify';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';
import { portalAuditActor } from './auth/portal-audit-actor';
import { LARGE_WITHDRAWAL, RequireTotp } from './auth/require-totp';

/**
 * The account's settlements: where they are paid, how often they happen on their own, and
 * withdrawals asked for by a person (live mode), which platform staff then approve.
 */
@PortalController('settlements')
export class PortalSettlementsController {
  constructor(
    private readonly settlements: SettlementsService,
    private readonly developers: DevelopersService,
  ) {}

  @Get('settings')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'Settlement bank account and auto-settlement frequency' })
  @ApiContract({ response: SettlementSettingsResponse, errors: ['insufficient_role'] })
  async settings(@PortalSession() session: PortalSessionContext): Promise<SettlementSettingsResponse> {
    return toSettings(await this.developers.get(accountContext(session).developerId));
  }

  @Put('account')
  @PortalAccess({ session: 'active', permission: 'account:manage' })
  @RequireTotp()
  @ApiOperation({
    summary: 'Set the settlement bank account',
    description:
      'Where settlements are paid (NGN). The account is resolved at its bank through the live provider and the bank\'s name for it is kept. Changing where money goes always needs the TOTP code; the change is logged. Settlements already requested keep their account.',
  })
  @ApiContract({
    body: SetSettlementAccountRequest,
    response: SettlementSettingsResponse,
    errors: ['validation_error', 'capability_not_supported', 'totp_required', 'totp_invalid', 'insufficient_role', 'csrf_token_invalid', 'gateway_timeout', 'provider_error'],
  })
  async setAccount(@PortalSession() session: PortalSessionContext, @Body() body: SetSettlementAccountRequest, @Req() request: FastifyRequest): Promise<SettlementSettingsResponse> {
    const account = { bankCode: body.bank_code, accountNumber: body.account_number };
    return toSettings(await this.settlements.setAccount(accountContext(session).developerId, account, portalAuditActor(session, request)));
  }

  @Put('schedule')
  @PortalAccess({ session: 'active', permission: 'account:manage' })
  @ApiOperation({ summary: 'Set the auto-settlement frequency', description: '`daily`, `weekly` or `manual` (the default): auto-settlements withdraw the available balance, less the configured minimum, and follow the same approval rules.' })
  @ApiContract({ body: SetAutoSettlementRequest, response: SettlementSettingsResponse, errors: ['validation_error', 'insufficient_role', 'csrf_token_invalid'] })
  async setSchedule(@PortalSession() session: PortalSessionContext, @Body() body: SetAutoSettlementRequest): Promise<SettlementSettingsResponse> {
    return toSettings(await this.developers.setAutoSettlementFrequency(accountContext(session).developerId, body.frequency));
  }

  @Post()
  @HttpCode(201)
  @PortalAccess({ session: 'active', permission: 'account:manage' })
  @RequireTotp(LARGE_WITHDRAWAL)
  @ApiOperation({
    summary: 'Request a settlement',
    description:
      'Withdraws `amount` to the settlement bank account (live mode only: 403 `live_mode_required` in test mode). The amount is reserved at once (422 `insufficient_wallet_balance` when the available balance is too low) and the settlement waits, `pending_approval`, for platform staff. Above LARGE_WITHDRAWAL_THRESHOLD the TOTP code is required.',
  })
  @ApiContract({
    body: RequestSettlementRequest,
    response: SettlementResponse,
    status: 201,
    errors: ['validation_error', 'invalid_currency', 'live_mode_required', 'invalid_state', 'capability_not_supported', 'insufficient_wallet_balance', 'totp_required', 'totp_invalid', 'insufficient_role', 'csrf_token_invalid'],
  })
  async request(@PortalSession() session: PortalSessionContext, @Body() body: RequestSettlementRequest, @Req() request: FastifyRequest): Promise<SettlementResponse> {
    const actor = { userId: session.actor.userId, ip: request.clientIp ?? request.ip };
    return toSettlementResponse(await this.settlements.request(accountContext(session), { amount: body.amount, currency: body.currency }, actor));
  }

  @Get()
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: "List the account's settlements", description: 'Live mode; cursor-paginated, newest first; filters as on the merchant API.' })
  @ApiContract({ list: SettlementResponse, errors: ['validation_error', 'invalid_currency', 'insufficient_role'] })
  async list(@PortalSession() session: PortalSessionContext, @Query() query: ListSettlementsQuery): Promise<ListResponse<SettlementResponse>> {
    const page = await this.settlements.list(accountContext(session), {
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      cursor: query.cursor,
      status: query.status,
      currency: query.currency === undefined ? undefined : parseRequestCurrency(query.currency),
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    });
    return ListResponse.of(page, toSettlementResponse);
  }
}

function toSettings(developer: Developer): SettlementSettingsResponse {
  return {
    bank_code: developer.settlementBankCode,
    account_name: developer.settlementAccountName,
    account_number_last4: developer.settlementAccountNumber?.slice(-4) ?? null,
    auto_settlement_frequency: developer.autoSettlementFrequency,
  };
}
