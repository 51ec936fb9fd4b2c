import { SkipThrottle } from '@nestjs/throttler';
import { API_KEY_BUCKET, IP_BUCKET } from './rate-limit-buckets';

/** Exempts a route or controller from both buckets (health probes: a load balancer polls them). */
export function SkipRateLimit(): MethodDecorator & ClassDecorator {
  return SkipThrottle({ [IP_BUCKET]: true, [API_KEY_BUCKET]: true });
}
