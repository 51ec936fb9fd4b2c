import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import type { FieldErrors } from '@gateway/contracts';
import { DomainError } from '@gateway/platform';
import { oversizedArrays } from './body-arrays/array-limits';
import { cacheValidationMetadata } from './validation-metadata.cache';

/**
 * Validation that looks at array lengths first: a body array over its `@ArrayMaxSize` is refused
 * before class-transformer copies and class-validator validates each of its items (see
 * array-limits.ts). API-key routes have had the same check in BodyArrayLimitsGuard already.
 */
class ArrayLimitsFirstValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && typeof metadata.metatype === 'function' && metadata.data === undefined) {
      const errors = oversizedArrays(metadata.metatype, value);
      if (Object.keys(errors).length) return Promise.reject(new DomainError('validation_error', 'The request is invalid.', errors));
    }
    return super.transform(value, metadata) as Promise<unknown>;
  }
}

/**
 * Strict request validation: unknown fields are refused (never silently stored) and every
 * failure becomes `validation_error` with a field → messages map (dotted paths when nested).
 */
export function createValidationPipe(): ValidationPipe {
  cacheValidationMetadata();
  return new ArrayLimitsFirstValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) =>
      new DomainError('validation_error', 'The request is invalid.', flattenValidationErrors(errors)),
  });
}

export function flattenValidationErrors(errors: ValidationError[], prefix = ''): FieldErrors {
  const result: FieldErrors = {};
  for (const error of errors) {
    const field = error.property ? (prefix ? `${prefix}.${error.property}` : error.property) : prefix || 'body';
    const messages = Object.values(error.constraints ?? {}).map((m) =>
      m === 'an unknown value was passed to the validate function' ? 'must be a JSON object' : m,
    );
    if (messages.length) result[field] = [...(result[field] ?? []), ...messages];
    if (error.children?.length) Object.assign(result, flattenValidationErrors(error.children, field));
  }
  return result;
}
