import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CreateExportRequest, DEFAULT_PAGE_SIZE, ExportResponse, ListExportsQuery } from '@gateway/contracts';
import { type Export, ExportsService, toExportResponse } from '@gateway/domain/exports';
import { APP_CONFIG, type AppConfig, type DeveloperContext } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import type { ApiKeyPrincipal } from '../../http/auth/principal';
import { Idempotent } from '../../http/idempotency/idempotent.decorator';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';
import { downloadFile, EXPORT_CREATE_DESCRIPTION, EXPORT_DOWNLOAD_DESCRIPTION } from './export-download';

@ApiTags('Exports')
@Controller('exports')
export class ExportsController {
  constructor(
    private readonly exports: ExportsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @Idempotent()
  @HttpCode(202)
  @Authenticated({ scope: 'exports:write' })
  @ApiOperation({ summary: 'Request an export (CSV)', description: EXPORT_CREATE_DESCRIPTION })
  @ApiContract({ body: CreateExportRequest, response: ExportResponse, status: 202, errors: ['validation_error', 'invalid_currency'] })
  async create(@Tenant() ctx: DeveloperContext, @Body() body: CreateExportRequest, @Req() request: FastifyRequest): Promise<ExportResponse> {
    const keyId = (request.principal as ApiKeyPrincipal).keyId;
    return this.toResponse(await this.exports.create(ctx, body, { kind: 'key', keyId }));
  }

  @Get()
  @Authenticated({ scope: 'exports:read' })
  @ApiOperation({ summary: 'List exports', description: 'Cursor-paginated, newest first: every export of this mode, with its status and progress.' })
  @ApiContract({ list: ExportResponse, errors: ['validation_error'] })
  async list(@Tenant() ctx: DeveloperContext, @Query() query: ListExportsQuery): Promise<ListResponse<ExportResponse>> {
    const page = await this.exports.list(ctx, { limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor });
    return ListResponse.of(page, (e) => this.toResponse(e));
  }

  @Get(':reference')
  @Authenticated({ scope: 'exports:read' })
  @ApiOperation({ summary: 'Get an export', description: 'Its status and progress (`rows_done` of `rows_total`, `progress` 0–100) while it runs; `download_url` once completed.' })
  @ApiContract({ response: ExportResponse, errors: ['export_not_found'] })
  async get(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string): Promise<ExportResponse> {
    return this.toResponse(await this.exports.get(ctx, reference));
  }

  @Get(':reference/download')
  @Authenticated({ scope: 'exports:read' })
  @ApiOperation({ summary: "Download an export's CSV file", description: EXPORT_DOWNLOAD_DESCRIPTION })
  @ApiProduces('text/csv')
  @ApiResponse({ status: 200, description: 'The CSV file (UTF-8), with Content-Disposition and Content-Length.', content: { 'text/csv': { schema: { type: 'string', format: 'binary' } } } })
  @ApiResponse({ status: 404, description: 'Error envelope with code `export_not_found`' })
  @ApiResponse({ status: 409, description: 'Error envelope with code `export_not_ready`' })
  @ApiResponse({ status: 410, description: 'Error envelope with code `export_expired`' })
  async download(@Tenant() ctx: DeveloperContext, @Param('reference') reference: string): Promise<StreamableFile> {
    return downloadFile(await this.exports.download(ctx, reference));
  }

  private toResponse(e: Export): ExportResponse {
    return toExportResponse(e, (reference) => `${this.config.api.publicBaseUrl}/api/v1/exports/${encodeURIComponent(reference)}/download`);
  }
}
