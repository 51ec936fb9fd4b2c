import { Global, Module } from '@nestjs/common';
import { IdempotencyModule } from '@gateway/domain/idempotency';
import { IdempotencyResponseRecorder } from './idempotency-response.recorder';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * The HTTP side of idempotency keys. Global, so the interceptor that `@Idempotent()` puts on a
 * route resolves its IdempotencyService in whichever module declares the controller.
 */
@Global()
@Module({
  imports: [IdempotencyModule],
  providers: [IdempotencyResponseRecorder, IdempotencyInterceptor],
  exports: [IdempotencyModule, IdempotencyInterceptor],
})
export class IdempotencyHttpModule {}
