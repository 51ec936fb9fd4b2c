import { UseGuards } from '@nestjs/common';
import { IdempotencyGuard } from './idempotency.guard';

/**
 * Marks a mutating merchant route as taking `Idempotency-Key` / `X-Idempotency-Key`. Declared per
 * route (reads carry no idempotency guard at all, which keeps them cheap); the route-access test
 * proves every POST, PATCH and DELETE merchant route declares it.
 */
export const Idempotent = (): MethodDecorator => UseGuards(IdempotencyGuard);
