import type { ErrorCode } from '../errors/error-code';

/** Field name (dotted path for nested fields) → human-readable messages. */
export type FieldErrors = Record<string, string[]>;

export interface ListMeta {
  next_cursor: string | null;
  has_more: boolean;
  limit: number;
}

export interface SuccessEnvelope<T> {
  success: true;
  data: T;
  meta?: ListMeta;
}

export interface ErrorEnvelope {
  success: false;
  code: ErrorCode;
  message: string;
  errors?: FieldErrors;
  retry_after?: number;
}
