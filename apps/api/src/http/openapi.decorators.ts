import { applyDecorators, type Type } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiResponse } from '@nestjs/swagger';
import { ERROR_HTTP_STATUS, type ErrorCode } from '@gateway/contracts';

/**
 * Documents a route's request body and its possible error codes in the envelope format, so the
 * OpenAPI document is complete enough to integrate from.
 */
export function ApiContract(options: { body?: Type<unknown>; status?: number; list?: boolean; errors?: ErrorCode[] }): MethodDecorator {
  const decorators = [];
  if (options.body) decorators.push(ApiExtraModels(options.body), ApiBody({ type: options.body }));
  decorators.push(
    ApiResponse({
      status: options.status ?? 200,
      description: options.list
        ? 'Success: `{"success": true, "data": [...], "meta": {"next_cursor", "has_more", "limit"}}`'
        : 'Success: `{"success": true, "data": {...}}`',
    }),
  );
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of options.errors ?? []) byStatus.set(ERROR_HTTP_STATUS[code], [...(byStatus.get(ERROR_HTTP_STATUS[code]) ?? []), code]);
  for (const [status, codes] of byStatus) {
    decorators.push(ApiResponse({ status, description: `Error envelope with code ${codes.map((c) => `\`${c}\``).join(', ')}` }));
  }
  return applyDecorators(...decorators);
}
