import { SetMetadata } from '@nestjs/common';

export const SKIP_RATE_LIMIT = 'gateway:skip-rate-limit';

/** Exempts a route or controller from both buckets (health probes: a load balancer polls them). */
export function SkipRateLimit(): MethodDecorator & ClassDecorator {
  return SetMetadata(SKIP_RATE_LIMIT, true);
}
