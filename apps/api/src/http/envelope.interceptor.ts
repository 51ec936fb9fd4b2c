import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { SuccessEnvelope } from '@gateway/contracts';
import { map, type Observable } from 'rxjs';
import { ListResponse } from './list-response';

/** The one place a success body is shaped: `{success: true, data, meta?}`. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<SuccessEnvelope<unknown>> {
    return next.handle().pipe(
      map((result: unknown) =>
        result instanceof ListResponse
          ? { success: true as const, data: result.items, meta: result.meta }
          : { success: true as const, data: result ?? null },
      ),
    );
  }
}
