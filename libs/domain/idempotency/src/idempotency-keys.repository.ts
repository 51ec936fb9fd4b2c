import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { DeveloperContext } from '@gateway/platform';
import { Repository } from 'typeorm';
import { IdempotencyKeyEntity } from './idempotency-key.entity';

/** Where a key applies: developer + mode + method + route pattern + the key itself. */
export interface IdempotencyScope {
  method: string;
  route: string;
  key: string;
}

/** The SQL behind idempotency claims. Every statement on a key filters by developer and mode. */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(@InjectRepository(IdempotencyKeyEntity) private readonly keys: Repository<IdempotencyKeyEntity>) {}

  /**
   * The claim itself: the unique (developer, mode, method, route, key) constraint lets exactly one
   * of any number of concurrent inserts win. Returns the new row's id, or null when the key exists.
   */
  async insertClaim(ctx: DeveloperContext, scope: IdempotencyScope, requestHash: string, token: string, now: Date): Promise<string | null> {
    const rows = (await this.keys.query(
      `INSERT INTO idempotency_keys (developer_id, mode, method, route, key, request_hash, status, claim_token, claimed_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'in_progress', $7, $8)
       ON CONFLICT ON CONSTRAINT idempotency_keys_scope_key DO NOTHING
       RETURNING id`,
      [ctx.developerId, ctx.mode, scope.method, scope.route, scope.key, requestHash, token, now],
    )) as Array<{ id: string }>;
    return rows[0]?.id ?? null;
  }

  findByScope(ctx: DeveloperContext, scope: IdempotencyScope): Promise<IdempotencyKeyEntity | null> {
    return this.keys.findOneBy({ developerId: ctx.developerId, mode: ctx.mode, method: scope.method, route: scope.route, key: scope.key });
  }

  /**
   * Compare-and-swap on the claim token: succeeds only if nobody completed, released or took over
   * the claim since `expectedToken` was read. `claimed_at` only ever changes together with the
   * token, so the staleness the caller saw still holds when this succeeds.
   */
  async takeOver(ctx: DeveloperContext, id: string, expectedToken: string, newToken: string, now: Date): Promise<boolean> {
    return this.affected(
      `UPDATE idempotency_keys SET claim_token = $5, claimed_at = $6
       WHERE id = $1 AND developer_id = $2 AND mode = $3 AND claim_token = $4 AND status = 'in_progress'
       RETURNING id`,
      [id, ctx.developerId, ctx.mode, expectedToken, newToken, now],
    );
  }

  async complete(ctx: DeveloperContext, id: string, token: string, status: number, body: string, now: Date): Promise<boolean> {
    return this.affected(
      `UPDATE idempotency_keys SET status = 'completed', response_status = $5, response_body = $6, completed_at = $7
       WHERE id = $1 AND developer_id = $2 AND mode = $3 AND claim_token = $4 AND status = 'in_progress'
       RETURNING id`,
      [id, ctx.developerId, ctx.mode, token, status, body, now],
    );
  }

  async release(ctx: DeveloperContext, id: string, token: string): Promise<boolean> {
    return this.affected(
      `DELETE FROM idempotency_keys
       WHERE id = $1 AND developer_id = $2 AND mode = $3 AND claim_token = $4 AND status = 'in_progress'
       RETURNING id`,
      [id, ctx.developerId, ctx.mode, token],
    );
  }

  /**
   * Deletes up to `batchSize` rows claimed before `cutoff`. Rows another purger (or a request) holds
   * locked are skipped rather than waited for, so concurrent schedulers share the work.
   */
  async deleteClaimedBefore(cutoff: Date, batchSize: number): Promise<number> {
    const [, count] = (await this.keys.query(
      `DELETE FROM idempotency_keys
       WHERE id IN (
         SELECT id FROM idempotency_keys WHERE claimed_at < $1
         ORDER BY claimed_at LIMIT $2
         FOR UPDATE SKIP LOCKED
       )`,
      [cutoff, batchSize],
    )) as [unknown[], number];
    return count;
  }

  // TypeORM answers UPDATE and DELETE with [rows, rowCount].
  private async affected(sql: string, parameters: unknown[]): Promise<boolean> {
    const [, count] = (await this.keys.query(sql, parameters)) as [unknown[], number];
    return count > 0;
  }
}
