import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Mode } from '@gateway/contracts';
import type { Repository } from 'typeorm';
import { ProviderEventEntity } from './provider-event.entity';

// One statement claims the digest: a new delivery inserts it; a stale unfinished claim is taken
// over. A concurrent identical delivery blocks on the uncommitted row, then sees it and gets nothing.
const CLAIM_SQL = `INSERT INTO provider_events (digest, mode, event, received_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (digest) DO UPDATE SET received_at = EXCLUDED.received_at
    WHERE provider_events.processed_at IS NULL AND provider_events.received_at < $5
  RETURNING digest`;

/** The provider's callbacks as claimed for processing, by the SHA-256 of their body. */
@Injectable()
export class ProviderEventsRepository {
  constructor(@InjectRepository(ProviderEventEntity) private readonly events: Repository<ProviderEventEntity>) {}

  /** Claims the digest at `claimedAt`, or takes over a claim left unfinished since before `staleBefore`; false when not claimed. */
  async claim(digest: string, mode: Mode, name: string, claimedAt: Date, staleBefore: Date): Promise<boolean> {
    const claimed: unknown[] = await this.events.query(CLAIM_SQL, [digest, mode, name, claimedAt, staleBefore]);
    return claimed.length > 0;
  }

  /** Whether the digest's callback was processed already (false: a claim is being processed). */
  async isProcessed(digest: string): Promise<boolean> {
    const [row]: Array<{ processed_at: Date | null }> = await this.events.query(`SELECT processed_at FROM provider_events WHERE digest = $1`, [digest]);
    return Boolean(row?.processed_at);
  }

  /** Releases the claim taken at `claimedAt` (only that one, and only while unfinished). */
  async release(digest: string, claimedAt: Date): Promise<void> {
    await this.events.query(`DELETE FROM provider_events WHERE digest = $1 AND received_at = $2 AND processed_at IS NULL`, [digest, claimedAt]);
  }

  async markProcessed(digest: string, at: Date): Promise<void> {
    await this.events.query(`UPDATE provider_events SET processed_at = $2 WHERE digest = $1 AND processed_at IS NULL`, [digest, at]);
  }
}
