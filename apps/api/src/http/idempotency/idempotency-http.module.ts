import { Global, Module } from '@nestjs/common';
import { IdempotencyModule } from '@gateway/domain/idempotency';
import { IdempotencyResponseRecorder } from './idempotency-response.recorder';
import { IdempotencyGuard } from './idempotency.guard';

/**
 * The HTTP side of idempotency keys. Global, so the guard that `@Idempotent()` puts on a route
 * resolves its IdempotencyService in whichever module declares the controller.
 */
@Global()
@Module({
  imports: [IdempotencyModule],
  providers: [IdempotencyResponseRecorder, IdempotencyGuard],
  exports: [IdempotencyModule, IdempotencyGuard],
})
export class IdempotencyHttpModule {}
