/**
 * Responses remembered for the `Idempotency-Key` request header (a simulator
 * extension; Paystack itself relies on references). A key is scoped to one
 * account and one route; replaying it with the same body returns the stored
 * response byte for byte.
 */
export interface StoredResponse {
  /** Hash of the request that produced the response; a different request under the same key is refused. */
  requestFingerprint: string;
  statusCode: number;
  body: string;
}

export class IdempotencyStore {
  private readonly responses = new Map<string, StoredResponse>();
  private readonly inFlight = new Set<string>();

  find(scopedKey: string): StoredResponse | undefined {
    return this.responses.get(scopedKey);
  }

  isInFlight(scopedKey: string): boolean {
    return this.inFlight.has(scopedKey);
  }

  begin(scopedKey: string): void {
    this.inFlight.add(scopedKey);
  }

  complete(scopedKey: string, response: StoredResponse): void {
    this.inFlight.delete(scopedKey);
    this.responses.set(scopedKey, response);
  }

  /** The request ended without a storable response (5xx, aborted): the key may be retried. */
  abandon(scopedKey: string): void {
    this.inFlight.delete(scopedKey);
  }
}
