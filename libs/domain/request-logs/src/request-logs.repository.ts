import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Mode } from '@gateway/contracts';
import { Clock, type DeveloperContext, type NewestFirstPage, preparedStatement, runStatement } from '@gateway/platform';
import { from as copyFrom } from 'pg-copy-streams';
import type { PoolClient } from 'pg';
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { DataSource } from 'typeorm';
import type { RequestLogRow } from './request-log-entry';

/** A stored row as the portal's list reads it. */
export interface RequestLogRecord {
  id: string;
  request_id: string;
  created_at: Date;
  /** created_at to the microsecond, for an exact keyset cursor. */
  cursor_at: string;
  duration_ms: number;
  method: string;
  path: string;
  status_code: number;
  mode: Mode | null;
  api_key_id: string | null;
  client_ip: string | null;
  user_agent: string | null;
  request_body: unknown;
  response_body: unknown;
}

export interface RequestLogQuery {
  developerId: string;
  mode?: Mode;
  statusFrom?: number;
  statusTo?: number;
  pathContains?: string;
  requestId?: string;
  from?: Date;
  to?: Date;
}

const INSERT_COLUMNS = `request_id, created_at, duration_ms, developer_id, api_key_id, mode, method, path, route,
  status_code, request_body, response_body, client_ip, user_agent`;

/**
 * The fallback write (see insertBatch): each column travels as one array parameter and unnest()
 * turns the arrays back into rows. ON CONFLICT makes re-sending a batch harmless.
 */
const INSERT_BATCH = `
  INSERT INTO request_logs (${INSERT_COLUMNS})
  SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::int[], $4::uuid[], $5::uuid[], $6::text[], $7::text[],
    $8::text[], $9::text[], $10::int[], $11::jsonb[], $12::jsonb[], $13::text[], $14::text[])
  ON CONFLICT (request_id, created_at) DO NOTHING`;

/**
 * SQL for the request_logs table: batched writes, the portal's keyset list. The table's day
 * partitions and retention are RequestLogPartitionsRepository's.
 */
@Injectable()
export class RequestLogsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** False once the application's connection pool has been closed (late shutdown). */
  get isAvailable(): boolean {
    return this.dataSource.isInitialized;
  }

  /** Requests logged since `since` (every account, both modes): how many, and how many answered 4xx and 5xx (request_logs_created_at_idx). */
  async statusClassCounts(since: Date): Promise<{ total: number; clientErrors: number; serverErrors: number }> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE status_code BETWEEN 400 AND 499)::int AS client_errors,
              count(*) FILTER (WHERE status_code >= 500)::int AS server_errors
         FROM request_logs WHERE created_at >= $1`,
      [since],
    )) as Array<{ total: number; client_errors: number; server_errors: number }>;
    return { total: row.total, clientErrors: row.client_errors, serverErrors: row.server_errors };
  }

  /**
   * Writes a batch with COPY: the cheapest way into PostgreSQL for both processes (no parameter
   * arrays to escape, no statement to plan), which matters because every API request is logged.
   * A failed COPY inserts nothing, so a retry is safe; the one case COPY cannot absorb is a batch
   * written whose acknowledgement was lost (a retry then meets the primary key, request_id with
   * the created_at the retried row carries unchanged): that batch
   * goes again through INSERT … ON CONFLICT DO NOTHING, which keeps the rows already there.
   */
  async insertBatch(rows: RequestLogRow[]): Promise<void> {
    if (rows.length === 0) return;
    try {
      await this.copyBatch(rows);
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      await this.insertBatchOnConflict(rows);
    }
  }

  private async copyBatch(rows: RequestLogRow[]): Promise<void> {
    const runner = this.dataSource.createQueryRunner();
    try {
      const client = (await runner.connect()) as PoolClient;
      await pipeline(Readable.from([rows.map(copyLine).join('')]), client.query(copyFrom(COPY_BATCH)));
    } finally {
      await runner.release();
    }
  }

  private async insertBatchOnConflict(rows: RequestLogRow[]): Promise<void> {
    const column = <T>(pick: (row: RequestLogRow) => T): T[] => rows.map(pick);
    await this.dataSource.query(INSERT_BATCH, [
      column((r) => r.requestId),
      column((r) => r.createdAt.toISOString()),
      column((r) => r.durationMs),
      column((r) => r.developerId),
      column((r) => r.apiKeyId),
      column((r) => r.mode),
      column((r) => r.method),
      column((r) => r.path),
      column((r) => r.route),
      column((r) => r.statusCode),
      column((r) => r.requestBody),
      column((r) => r.responseBody),
      column((r) => r.clientIp),
      column((r) => r.userAgent),
    ]);
  }

  /**
   * One page, newest first. Always scoped to one developer: the tenant filter is not optional.
   * The last day is asked first: request_logs is partitioned by time, and a query without a lower
   * time bound plans and opens every partition (about sixteen weeks: milliseconds), where one
   * bounded to the last day opens two or three (this week's, maybe last week's and the week
   * ahead's, and the default one).
   * When the last day alone fills the page, its rows are the page — every older row sorts after
   * them — else the page is read again without the bound (by request id: searchByRequestId).
   */
  async search(query: RequestLogQuery, page: NewestFirstPage): Promise<RequestLogRecord[]> {
    const recent = new Date(this.clock.now().getTime() - RECENT_WINDOW_MS);
    const bounded = (query.from && query.from >= recent) || (query.to && query.to < recent);
    if (!bounded) {
      const rows = await this.searchRows({ ...query, from: recent }, page);
      // A request id names one entry: found there, it is the whole answer.
      if (rows.length > page.limit || (query.requestId && rows.length > 0)) return rows;
    }
    if (query.requestId) return this.searchByRequestId(query.requestId, query, page);
    return (query.pathContains && (await this.searchByPathMatches(query, page))) || this.searchRows(query, page);
  }

  private async searchRows(query: RequestLogQuery, page: NewestFirstPage): Promise<RequestLogRecord[]> {
    const params: unknown[] = [query.developerId];
    const { where, order } = searchConditions(query, page, params);
    if (query.requestId) where.unshift(`request_id = $${params.push(query.requestId)}`);
    return this.dataSource.query(
      `SELECT ${RECORD_COLUMNS} FROM request_logs WHERE developer_id = $1${where.map((c) => ` AND ${c}`).join('')} ${order}`,
      params,
    );
  }

  /**
   * `?path=` beyond the last day, when the part of the path is rare. Ordered by time under a LIMIT,
   * PostgreSQL walks each partition's created_at index expecting a match soon, and for a part that
   * matches nothing it reads the whole account (40 s at 10M rows, docs/benchmarks.md). Here the
   * matches are collected in no order — through the partitions' trigram indexes — up to
   * PATH_MATCHES_COLLECTED, then sorted: exact whenever fewer were found. Undefined when that many
   * matched: the part is common, and the ordered walk (searchRows) meets a page's worth soon.
   */
  private async searchByPathMatches(query: RequestLogQuery, page: NewestFirstPage): Promise<RequestLogRecord[] | undefined> {
    const params: unknown[] = [query.developerId];
    const { where, order } = searchConditions(query, page, params);
    const rows = (await this.dataSource.query(
      `SELECT ${RECORD_COLUMNS}, count(*) OVER () AS matches
         FROM (SELECT * FROM request_logs WHERE developer_id = $1${where.map((c) => ` AND ${c}`).join('')} LIMIT ${PATH_MATCHES_COLLECTED + 1}) found
       ${order}`,
      params,
    )) as Array<RequestLogRecord & { matches: string }>;
    if (rows.length > 0 && Number(rows[0].matches) > PATH_MATCHES_COLLECTED) return undefined;
    return rows.map(({ matches: _matches, ...row }) => row);
  }

  /**
   * A request id in every partition: each partition's key (request_id, created_at) finds it
   * with one probe, and the other filters apply to what was found. The statement's text depends
   * only on which filters are set, so it runs prepared: PostgreSQL plans all the partitions
   * the first few times on a connection, then reuses that plan (a key probe per partition is the
   * best one whatever the values), where an unprepared search planned them all on every request
   * (docs/benchmarks.md, "List filters on a big account": about a third of the CPU).
   */
  private async searchByRequestId(requestId: string, query: RequestLogQuery, page: NewestFirstPage): Promise<RequestLogRecord[]> {
    const params: unknown[] = [requestId, query.developerId];
    const { where, order } = searchConditions(query, page, params);
    const text = `WITH found AS MATERIALIZED (SELECT ${RECORD_COLUMNS} FROM request_logs WHERE request_id = $1 AND developer_id = $2)
      SELECT * FROM found${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ${order}`;
    const statement = preparedStatement(`request-logs.by-request-id.${createHash('sha256').update(text).digest('hex').slice(0, 16)}`, text);
    return (await runStatement<RequestLogRecord>(this.dataSource.manager, statement, params)).rows;
  }

  /**
   * One request's entry, if this developer made it in this mode (a key probe in each partition it
   * reads). Most requests traced are recent ones: the last day's partitions are asked first, in a
   * statement planned for them alone; every partition only when the entry is not there, prepared
   * as searchByRequestId's.
   */
  async findByRequestId(ctx: DeveloperContext, requestId: string): Promise<RequestLogRecord | null> {
    const since = new Date(this.clock.now().getTime() - RECENT_WINDOW_MS).toISOString();
    const [recent] = (await this.dataSource.query(
      `SELECT ${RECORD_COLUMNS} FROM request_logs WHERE request_id = $1 AND developer_id = $2 AND mode = $3 AND created_at >= $4 ORDER BY created_at DESC LIMIT 1`,
      [requestId, ctx.developerId, ctx.mode, since],
    )) as RequestLogRecord[];
    return recent ?? (await runStatement<RequestLogRecord>(this.dataSource.manager, FIND_BY_REQUEST_ID, [requestId, ctx.developerId, ctx.mode])).rows[0] ?? null;
  }
}

const UNIQUE_VIOLATION = '23505';

/**
 * How many matches of a rare path part are collected and sorted (searchByPathMatches): enough that a
 * part matching more is common enough for the ordered walk, few enough to sort in milliseconds.
 */
const PATH_MATCHES_COLLECTED = 5_000;

/** The span search asks first (see search): a day, in one or two partitions. */
const RECENT_WINDOW_MS = 86_400_000;

/** A RequestLogRecord's columns. */
const RECORD_COLUMNS = `id, request_id, created_at,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at,
  duration_ms, method, path, status_code, mode, api_key_id, client_ip, user_agent,
  request_body, response_body`;

const FIND_BY_REQUEST_ID = preparedStatement(
  'request-logs.find-by-request-id',
  `SELECT ${RECORD_COLUMNS} FROM request_logs WHERE request_id = $1 AND developer_id = $2 AND mode = $3 ORDER BY created_at DESC LIMIT 1`,
);

/**
 * A search's conditions other than the tenant's and the request id's, with their values appended
 * to `params`, and its keyset order and limit (`ORDER BY … LIMIT …`).
 */
function searchConditions(query: RequestLogQuery, page: NewestFirstPage, params: unknown[]): { where: string[]; order: string } {
  const where: string[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (query.mode) where.push(`mode = ${bind(query.mode)}`);
  if (query.statusFrom !== undefined) where.push(`status_code >= ${bind(query.statusFrom)}`);
  if (query.statusTo !== undefined) where.push(`status_code <= ${bind(query.statusTo)}`);
  if (query.pathContains) where.push(`path ILIKE ${bind(`%${escapeLike(query.pathContains)}%`)} ESCAPE '\\'`);
  if (query.from) where.push(`created_at >= ${bind(query.from.toISOString())}`);
  if (query.to) where.push(`created_at <= ${bind(query.to.toISOString())}`);
  const keyset = page.sql(bind);
  if (keyset.where) where.push(keyset.where);
  return { where, order: `ORDER BY ${keyset.orderBy} LIMIT ${keyset.limit}` };
}

const COPY_BATCH = `COPY request_logs (${INSERT_COLUMNS}) FROM STDIN`;

/** One row in COPY text format: tab-separated, `\N` for null, backslash escapes inside values (numbers and times need none). */
function copyLine(r: RequestLogRow): string {
  return (
    `${copyValue(r.requestId)}\t${r.createdAt.toISOString()}\t${r.durationMs}\t${copyValue(r.developerId)}\t${copyValue(r.apiKeyId)}\t` +
    `${copyValue(r.mode)}\t${copyValue(r.method)}\t${copyValue(r.path)}\t${copyValue(r.route)}\t${r.statusCode}\t` +
    `${copyValue(r.requestBody)}\t${copyValue(r.responseBody)}\t${copyValue(r.clientIp)}\t${copyValue(r.userAgent)}\n`
  );
}

function copyValue(value: string | null): string {
  if (value === null) return '\\N';
  return needsCopyEscape(value) ? value.replace(/[\\\n\r\t]/g, (c) => COPY_ESCAPES[c]) : value;
}

/** Four searches for one character each: several times quicker than a character-class regex over a body's kilobytes. */
function needsCopyEscape(value: string): boolean {
  return value.includes('\\') || value.includes('\n') || value.includes('\r') || value.includes('\t');
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
