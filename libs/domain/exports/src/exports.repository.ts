import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type DeveloperContext, fromStatesOf, newestFirst, type Page, type PageRequest, targetOf } from '@gateway/platform';
import type { EntityManager, Repository } from 'typeorm';
import { ExportEntity } from './export.entity';
import { EXPORT_TRANSITIONS, type ExportTransition } from './export-status';

/** What a finished file is. */
export interface StoredFile {
  fileKey: string;
  fileSize: number;
  contentSha256: string;
  rowsDone: number;
  completedAt: Date;
  expiresAt: Date;
}

const from = (move: ExportTransition) => [...fromStatesOf(EXPORT_TRANSITIONS, move)];
const to = (move: ExportTransition) => targetOf(EXPORT_TRANSITIONS, move);

/**
 * Export rows (table `exports`). Tenant reads take a DeveloperContext and filter by developer AND
 * mode; the worker and the scans work by id. Every write of a running export is conditional on
 * the attempt number it started with, so an attempt superseded by a retry changes nothing.
 */
@Injectable()
export class ExportsRepository {
  constructor(@InjectRepository(ExportEntity) private readonly exports: Repository<ExportEntity>) {}

  get manager(): EntityManager {
    return this.exports.manager;
  }

  async insert(manager: EntityManager, row: ExportEntity): Promise<void> {
    await manager.getRepository(ExportEntity).insert(row);
  }

  findByReference(ctx: DeveloperContext, reference: string): Promise<ExportEntity | null> {
    return this.exports.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode });
  }

  findById(id: string): Promise<ExportEntity | null> {
    return this.exports.findOneBy({ id });
  }

  async list(ctx: DeveloperContext, request: PageRequest): Promise<Page<ExportEntity>> {
    const page = newestFirst.page(request);
    const query = this.exports.createQueryBuilder('e').where('e.developer_id = :developerId AND e.mode = :mode', ctx);
    return page.toPage(await page.applyTo(query, 'e').getMany(), (e) => e);
  }

  /** queued (or a crashed attempt's running) → running, as a new attempt; its number, or null when the export is past running. */
  async start(id: string, now: Date): Promise<number | null> {
    const [rows] = (await this.exports.query(
      `UPDATE exports SET status = $2, attempts = attempts + 1, started_at = $3, heartbeat_at = $3, updated_at = $3, rows_done = 0, rows_total = NULL, error = NULL
        WHERE id = $1 AND status = ANY ($4::text[]) RETURNING attempts`,
      [id, to('start'), now, from('start')],
    )) as [Array<{ attempts: number }>, number];
    return rows[0]?.attempts ?? null;
  }

  /** Rows counted at the start; false when the attempt was superseded. */
  setTotal(id: string, attempt: number, rowsTotal: number, now: Date): Promise<boolean> {
    return this.updateRunning(id, attempt, 'rows_total = $4, heartbeat_at = $3, updated_at = $3', [now, rowsTotal]);
  }

  /** Rows written so far (and the heartbeat); false when the attempt was superseded. */
  progress(id: string, attempt: number, rowsDone: number, now: Date): Promise<boolean> {
    return this.updateRunning(id, attempt, 'rows_done = $4, heartbeat_at = $3, updated_at = $3', [now, rowsDone]);
  }

  /** running → completed with its file; false when the attempt was superseded. */
  async complete(id: string, attempt: number, file: StoredFile): Promise<boolean> {
    const [rows] = (await this.exports.query(
      `UPDATE exports SET status = $3, file_key = $4, file_size = $5, content_sha256 = $6, rows_done = $7, completed_at = $8, expires_at = $9, heartbeat_at = $10, updated_at = $10
        WHERE id = $1 AND attempts = $2 AND status = ANY ($11::text[]) RETURNING id`,
      [id, attempt, to('complete'), file.fileKey, file.fileSize, file.contentSha256, file.rowsDone, file.completedAt, file.expiresAt, new Date(), from('complete')],
    )) as [unknown[], number];
    return rows.length > 0;
  }

  /** running → queued (another attempt is due) or → failed with a short error class. */
  async stop(id: string, attempt: number, move: 'requeue' | 'fail', error: string, now: Date): Promise<void> {
    await this.exports.query(
      `UPDATE exports SET status = $3, error = $4, updated_at = $5, heartbeat_at = NULL WHERE id = $1 AND attempts = $2 AND status = ANY ($6::text[])`,
      [id, attempt, to(move), error, now, from(move)],
    );
  }

  /** Running exports whose heartbeat stopped before `staleBefore` (their worker died): their ids. */
  async findStalled(staleBefore: Date, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.exports.query(
      `SELECT id FROM exports WHERE status = 'running' AND heartbeat_at < $1 ORDER BY heartbeat_at LIMIT $2`,
      [staleBefore, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Completed exports whose expiry is at or before `asOf` (optionally one tenant's), oldest first. */
  async findDueForExpiry(asOf: Date, limit: number, ctx?: DeveloperContext): Promise<Array<{ id: string; fileKey: string | null }>> {
    const tenant = ctx ? 'AND developer_id = $3 AND mode = $4' : '';
    const rows: Array<{ id: string; file_key: string | null }> = await this.exports.query(
      `SELECT id, file_key FROM exports WHERE status = 'completed' AND expires_at <= $1 ${tenant} ORDER BY expires_at LIMIT $2`,
      [asOf, limit, ...(ctx ? [ctx.developerId, ctx.mode] : [])],
    );
    return rows.map((r) => ({ id: r.id, fileKey: r.file_key }));
  }

  /** completed → expired (its file already deleted); false when another scan got there first. */
  async markExpired(id: string, now: Date): Promise<boolean> {
    const [rows] = (await this.exports.query(
      `UPDATE exports SET status = $2, expired_at = $3, updated_at = $3 WHERE id = $1 AND status = ANY ($4::text[]) RETURNING id`,
      [id, to('expire'), now, from('expire')],
    )) as [unknown[], number];
    return rows.length > 0;
  }

  private async updateRunning(id: string, attempt: number, set: string, params: unknown[]): Promise<boolean> {
    const [rows] = (await this.exports.query(`UPDATE exports SET ${set} WHERE id = $1 AND attempts = $2 AND status = 'running' RETURNING id`, [id, attempt, ...params])) as [
      unknown[],
      number,
    ];
    return rows.length > 0;
  }
}
