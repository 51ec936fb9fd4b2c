import { Module } from '@nestjs/common';
import { IdempotencyModule } from '@gateway/domain/idempotency';
import { IdempotencyResponseRecorder } from './idempotency-response.recorder';

/**
 * The HTTP side of idempotency keys, except the interceptor itself: that one is registered in
 * AppModule next to the envelope interceptor, because global interceptors run in the order they
 * are listed there.
 */
@Module({
  imports: [IdempotencyModule],
  providers: [IdempotencyResponseRecorder],
  exports: [IdempotencyModule],
})
export class IdempotencyHttpModule {}
