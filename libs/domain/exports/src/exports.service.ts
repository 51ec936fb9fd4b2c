import { Inject, Injectable } from '@nestjs/common';
import type { ExportType } from '@gateway/contracts';
import { DevelopersService } from '@gateway/domain/developers';
import { parseRequestCurrency } from '@gateway/domain/payments';
import { TestClocksService } from '@gateway/domain/test-clocks';
import { APP_CONFIG, type AppConfig, type DeveloperContext, DomainError, enqueueJob, inTransaction, type Page, type PageRequest, randomHex, timeOrderedUuid } from '@gateway/platform';
import type { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import type { ExportEntity, ExportFilters } from './export.entity';
import { exportFileName } from './export.mapper';
import { ExportSources } from './export-sources';
import { ExportStorage } from './export-storage';
import { ExportsRepository } from './exports.repository';

/** The job-queue task that writes one export's file (run by the scheduler's worker). */
export const EXPORT_TASK = 'export_file';
/** Attempts of one export (job retries and restarts after a crashed worker together); then it is `failed`. */
export const EXPORT_MAX_ATTEMPTS = 5;

export interface NewExport {
  type: ExportType;
  from: string;
  to: string;
  currency?: string;
  status?: string;
}

/** Who asked: a portal user (e-mailed themselves) or an API key (the account owner is e-mailed). */
export type ExportRequester = { kind: 'user'; userId: string; email: string } | { kind: 'key'; keyId: string };

/** A completed export's file, ready to stream. */
export interface ExportDownload {
  fileName: string;
  size: number;
  sha256: string | null;
  body: Readable;
}

const DAY_MS = 86_400_000;

/**
 * Exports (table `exports`, docs/exports.md): a merchant asks for a CSV of one kind of object
 * created in a date range; the row is stored `queued` with its job in one transaction, and the
 * scheduler's worker writes the file (ExportRunner). Downloads are the tenant's own: another
 * developer's or the other mode's export is answered as missing.
 */
@Injectable()
export class ExportsService {
  constructor(
    private readonly repository: ExportsRepository,
    private readonly sources: ExportSources,
    private readonly storage: ExportStorage,
    private readonly developers: DevelopersService,
    private readonly testClocks: TestClocksService,
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Queues an export (202 at the edge): validated, stored `queued` and its job enqueued at once.
   * @throws validation_error (range, a filter the type does not take, an unknown status), invalid_currency
   */
  async create(ctx: DeveloperContext, input: NewExport, requester: ExportRequester): Promise<ExportEntity> {
    const filters = this.checkedFilters(input);
    const notifyEmail = requester.kind === 'user' ? requester.email : (await this.developers.get(ctx.developerId)).email;
    const now = await this.testClocks.now(ctx);
    const row: ExportEntity = {
      id: timeOrderedUuid(),
      developerId: ctx.developerId,
      mode: ctx.mode,
      reference: `exp_${randomHex(10)}`,
      type: input.type,
      filters,
      status: 'queued',
      rowsDone: 0,
      rowsTotal: null,
      fileKey: null,
      fileSize: null,
      contentSha256: null,
      requestedBy: requester.kind === 'user' ? `user:${requester.userId}` : `key:${requester.keyId}`,
      notifyEmail,
      error: null,
      attempts: 0,
      createdAt: now,
      startedAt: null,
      heartbeatAt: null,
      completedAt: null,
      expiresAt: null,
      expiredAt: null,
      updatedAt: now,
    };
    await inTransaction(this.dataSource, async (manager) => {
      await this.repository.insert(manager, row);
      await enqueueJob(manager, EXPORT_TASK, { name: 'export_id', value: row.id }, { maxAttempts: EXPORT_MAX_ATTEMPTS });
    });
    return row;
  }

  /** @throws export_not_found (also for another developer's or the other mode's export) */
  async get(ctx: DeveloperContext, reference: string): Promise<ExportEntity> {
    const found = await this.repository.findByReference(ctx, reference);
    if (!found) throw new DomainError('export_not_found', 'No such export.');
    return found;
  }

  /** Newest first. @throws validation_error (a cursor this list did not issue) */
  list(ctx: DeveloperContext, request: PageRequest): Promise<Page<ExportEntity>> {
    return this.repository.list(ctx, request);
  }

  /**
   * The file of a completed export. Past its expiry (by the tenant's clock) it is gone even if the
   * scan has not run yet: the retention period is a promise.
   * @throws export_not_found, export_not_ready (queued, running or failed), export_expired
   */
  async download(ctx: DeveloperContext, reference: string): Promise<ExportDownload> {
    const found = await this.get(ctx, reference);
    if (found.status === 'expired') throw expired();
    if (found.status !== 'completed') {
      const why = found.status === 'failed' ? 'failed; request a new export' : `${found.status}; try again when it is completed`;
      throw new DomainError('export_not_ready', `The export is ${why}.`, { status: [found.status] });
    }
    if (found.expiresAt && found.expiresAt <= (await this.testClocks.now(ctx))) throw expired();
    const file = found.fileKey ? await this.storage.read(found.fileKey) : null;
    if (!file) throw expired();
    return { fileName: exportFileName(found), size: file.size, sha256: found.contentSha256, body: file.body };
  }

  /** @throws validation_error, invalid_currency */
  private checkedFilters(input: NewExport): ExportFilters {
    const source = this.sources.of(input.type);
    const errors: Record<string, string[]> = {};
    const from = new Date(input.from);
    const to = new Date(input.to);
    if (Number.isNaN(from.getTime())) errors['from'] = ['from must be an ISO 8601 date-time'];
    if (Number.isNaN(to.getTime())) errors['to'] = ['to must be an ISO 8601 date-time'];
    else if (!errors['from'] && to <= from) errors['to'] = ['to must be after from'];
    else if (!errors['from'] && to.getTime() - from.getTime() > this.config.exports.maxRangeDays * DAY_MS) {
      errors['to'] = [`the range may cover at most ${this.config.exports.maxRangeDays} days`];
    }
    if (input.currency !== undefined && !source.currency) errors['currency'] = [`${input.type} exports take no currency filter`];
    if (input.status !== undefined) {
      if (!source.statuses) errors['status'] = [`${input.type} exports take no status filter`];
      else if (!source.statuses.includes(input.status)) errors['status'] = [`status must be one of: ${source.statuses.join(', ')}`];
    }
    if (Object.keys(errors).length > 0) throw new DomainError('validation_error', 'The export request is not valid.', errors);
    const currency = input.currency === undefined ? null : parseRequestCurrency(input.currency);
    return { from: from.toISOString(), to: to.toISOString(), currency, status: input.status ?? null };
  }
}

function expired(): DomainError {
  return new DomainError('export_expired', 'The export expired: its file was deleted after the retention period. Request a new export.');
}
