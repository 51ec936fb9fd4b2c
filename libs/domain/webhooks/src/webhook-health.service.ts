import { Injectable } from '@nestjs/common';
import { Clock, type Page, type PageRequest } from '@gateway/platform';
import { type FailingEndpoint, WebhookHealthRepository } from './webhook-health.repository';

export type { FailingEndpoint };

/** How far back "failing" looks: a week of attempts, the span the retry schedule spreads over and more. */
export const FAILING_ENDPOINT_WINDOW_DAYS = 7;

/** Delivery health across every account, for platform staff (the admin console's failing-endpoints page). */
@Injectable()
export class WebhookHealthService {
  constructor(
    private readonly health: WebhookHealthRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Endpoints (not deleted) with at least one failed attempt in the last seven days, the most
   * recently failing first, with the count, the last failure's class and the current failure streak.
   * @throws validation_error (cursor)
   */
  failingEndpoints(request: PageRequest): Promise<Page<FailingEndpoint>> {
    const since = new Date(this.clock.now().getTime() - FAILING_ENDPOINT_WINDOW_DAYS * 24 * 60 * 60 * 1000);
    return this.health.failingSince(since, request);
  }
}
