import { SetMetadata } from '@nestjs/common';

export const IDEMPOTENCY_BODY_KEY = 'gateway:idempotency-body-key';

/**
 * Declares a request-body field that may carry the idempotency key instead of the header (the
 * contract allows `idempotency_key` on payment initialize). The route's DTO must still declare the
 * field, or the validation pipe refuses it as unknown.
 */
export function IdempotencyBodyKey(field: string): MethodDecorator & ClassDecorator {
  return SetMetadata(IDEMPOTENCY_BODY_KEY, field);
}
