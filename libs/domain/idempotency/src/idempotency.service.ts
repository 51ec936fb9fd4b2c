import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, Clock, type DeveloperContext, DomainError, Encryptor } from '@gateway/platform';
import { randomUUID } from 'node:crypto';
import type { IdempotencyKeyEntity } from './idempotency-key.entity';
import { idempotencyKeyProblem } from './idempotency-key-format';
import { IdempotencyKeysRepository, type IdempotencyScope } from './idempotency-keys.repository';

/** A request that carries an idempotency key. */
export interface IdempotentRequest extends IdempotencyScope {
  /** SHA-256 (hex) of the request's canonical JSON (see `requestFingerprint`). */
  requestHash: string;
}

/** Proof that this request holds the key; needed to complete or release it. */
export interface IdempotencyClaim {
  readonly ctx: DeveloperContext;
  readonly id: string;
  readonly token: string;
}

/** The answer given the first time, exactly as sent. */
export interface StoredResponse {
  status: number;
  body: string;
}

export type ClaimOutcome = { kind: 'claimed'; claim: IdempotencyClaim } | { kind: 'replay'; response: StoredResponse };

// Each lost race (a release or a takeover between our insert and read) costs one more round; a key
// that keeps changing hands this often is busy, so the caller is told it is in progress.
const MAX_CLAIM_ATTEMPTS = 5;
const PURGE_BATCH_SIZE = 5_000;

/**
 * Idempotency keys on PostgreSQL: a claim is a row insert that only one request can win; the
 * winner's response is stored and replayed to every retry with the same key and request.
 */
@Injectable()
export class IdempotencyService {
  private readonly lockTimeoutMs: number;

  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly clock: Clock,
    private readonly encryptor: Encryptor,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.lockTimeoutMs = config.idempotency.lockTimeoutSeconds * 1000;
  }

  /**
   * Claims the key for this request, or returns the stored response to replay. An in-progress
   * claim older than the lock timeout belongs to a request that crashed and is taken over.
   * @throws validation_error when the key is not 1–255 printable ASCII characters
   * @throws idempotency_key_reused when the key was first used with a different request
   * @throws idempotency_key_in_progress while another request holds the key
   */
  async claim(ctx: DeveloperContext, request: IdempotentRequest): Promise<ClaimOutcome> {
    const problem = idempotencyKeyProblem(request.key);
    if (problem) throw new DomainError('validation_error', 'The request is invalid.', { 'Idempotency-Key': [problem] });

    for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
      const now = this.clock.now();
      const token = randomUUID();
      const id = await this.keys.insertClaim(ctx, request, request.requestHash, token, now);
      if (id) return { kind: 'claimed', claim: { ctx, id, token } };

      const existing = await this.keys.findByScope(ctx, request);
      if (!existing) continue; // released between our insert and this read: claim again
      if (existing.requestHash !== request.requestHash) {
        throw new DomainError('idempotency_key_reused', 'This idempotency key was already used with a different request.');
      }
      if (existing.status === 'completed') return { kind: 'replay', response: this.storedResponse(existing) };
      if (!this.isAbandoned(existing, now)) throw inProgress();
      if (await this.keys.takeOver(ctx, existing.id, existing.claimToken, token, now)) {
        return { kind: 'claimed', claim: { ctx, id: existing.id, token } };
      }
      // Another request completed, released or took over the claim first: look again.
    }
    throw inProgress();
  }

  /**
   * Stores the response so retries replay it. Returns false when the claim is no longer held
   * (taken over after the lock timeout, or purged); the response is then not stored.
   */
  complete(claim: IdempotencyClaim, response: StoredResponse): Promise<boolean> {
    // Responses can hold what must only be stored encrypted (a webhook endpoint's signing
    // secret, saved-card authorization codes): the body is sealed, bound to its row.
    const sealed = this.encryptor.encrypt(response.body, claim.id);
    return this.keys.complete(claim.ctx, claim.id, claim.token, response.status, sealed, this.clock.now());
  }

  /** Gives the key up without a stored response, so a retry runs the request again. */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.keys.release(claim.ctx, claim.id, claim.token);
  }

  /**
   * Forgets every key claimed before `cutoff`, in batches. Safe to run in several processes at
   * once: each batch skips rows another one is deleting. Returns how many rows this call deleted.
   */
  async purgeOlderThan(cutoff: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.keys.deleteClaimedBefore(cutoff, PURGE_BATCH_SIZE);
      total += deleted;
      if (deleted < PURGE_BATCH_SIZE) return total;
    }
  }

  private storedResponse(row: IdempotencyKeyEntity): StoredResponse {
    return { status: row.responseStatus as number, body: this.encryptor.decrypt(row.responseBody as string, row.id) };
  }

  private isAbandoned(row: IdempotencyKeyEntity, now: Date): boolean {
    return now.getTime() - row.claimedAt.getTime() >= this.lockTimeoutMs;
  }
}


function inProgress(): DomainError {
  return new DomainError(
    'idempotency_key_in_progress',
    'A request with this idempotency key is still being processed; retry once it has finished.',
  );
}
