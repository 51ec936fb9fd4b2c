import { UseInterceptors } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * Marks a mutating merchant route as taking `Idempotency-Key` / `X-Idempotency-Key`. Declared per
 * route (reads carry no interceptor at all, which keeps them cheap); the route-access test proves
 * every POST, PATCH and DELETE merchant route declares it.
 */
export const Idempotent = (): MethodDecorator => UseInterceptors(IdempotencyInterceptor);
