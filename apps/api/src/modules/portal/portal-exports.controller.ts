import { Body, Get, HttpCode, Inject, Param, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse } from '@nestjs/swagger';
import { CreateExportRequest, DEFAULT_PAGE_SIZE, ExportResponse, ListExportsQuery } from '@gateway/contracts';
import { type Export, ExportsService, toExportResponse } from '@gateway/domain/exports';
import { APP_CONFIG, type AppConfig } from '@gateway/platform';
import { ApiContract } from '../../http/openapi.decorators';
import { ListResponse } from '../../http/list-response';
import { downloadFile, EXPORT_CREATE_DESCRIPTION, EXPORT_DOWNLOAD_DESCRIPTION } from '../exports/export-download';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';

/**
 * The account's exports in the session's mode (the portal's Reports page), as on the merchant API
 * under /api/v1/exports. Every member with `account:read` — viewers included — may request and
 * download them: an export only reads what that member can already list.
 */
@PortalController('exports')
export class PortalExportsController {
  constructor(
    private readonly exports: ExportsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(202)
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'Request an export (CSV, this mode)', description: `${EXPORT_CREATE_DESCRIPTION} From the portal, the member who asked is the one e-mailed.` })
  @ApiContract({ body: CreateExportRequest, response: ExportResponse, status: 202, errors: ['validation_error', 'invalid_currency', 'insufficient_role', 'csrf_token_invalid'] })
  async create(@PortalSession() session: PortalSessionContext, @Body() body: CreateExportRequest): Promise<ExportResponse> {
    const requester = { kind: 'user' as const, userId: session.actor.userId, email: session.actor.email };
    return this.toResponse(await this.exports.create(accountContext(session), body, requester));
  }

  @Get()
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'List exports (this mode)', description: 'As `GET /api/v1/exports`: cursor-paginated, newest first, with status and progress.' })
  @ApiContract({ list: ExportResponse, errors: ['validation_error', 'insufficient_role'] })
  async list(@PortalSession() session: PortalSessionContext, @Query() query: ListExportsQuery): Promise<ListResponse<ExportResponse>> {
    const page = await this.exports.list(accountContext(session), { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor });
    return ListResponse.of(page, (e) => this.toResponse(e));
  }

  @Get(':reference')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: 'Get an export' })
  @ApiContract({ response: ExportResponse, errors: ['export_not_found', 'insufficient_role'] })
  async get(@PortalSession() session: PortalSessionContext, @Param('reference') reference: string): Promise<ExportResponse> {
    return this.toResponse(await this.exports.get(accountContext(session), reference));
  }

  @Get(':reference/download')
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: "Download an export's CSV file", description: EXPORT_DOWNLOAD_DESCRIPTION })
  @ApiProduces('text/csv')
  @ApiResponse({ status: 200, description: 'The CSV file (UTF-8), with Content-Disposition and Content-Length.', content: { 'text/csv': { schema: { type: 'string', format: 'binary' } } } })
  @ApiResponse({ status: 404, description: 'Error envelope with code `export_not_found`' })
  @ApiResponse({ status: 409, description: 'Error envelope with code `export_not_ready`' })
  @ApiResponse({ status: 410, description: 'Error envelope with code `export_expired`' })
  async download(@PortalSession() session: PortalSessionContext, @Param('reference') reference: string): Promise<StreamableFile> {
    return downloadFile(await this.exports.download(accountContext(session), reference));
  }

  private toResponse(e: Export): ExportResponse {
    return toExportResponse(e, (reference) => `${this.config.api.publicBaseUrl}/api/portal/exports/${encodeURIComponent(reference)}/download`);
  }
}
