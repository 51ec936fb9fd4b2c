import type { ErrorCode } from '../errors/error-code';

/** Field name (dotted path for nested fields) → human-readable messages. */
export type FieldErrors = Record<string, string[]>;

/** The `meta` of every cursor-paginated list. */
export class ListMeta {
  /** Pass as `?cursor=` for the next page; null on the last page. */
  next_cursor: string | null;
  has_more: boolean;
  /** The page size used. */
  limit: number;
}

export interface SuccessEnvelope<T> {
  success: true;
  data: T;
  meta?: ListMeta;
}

/** Every error answer: `code` is the stable, machine-readable part (the error catalog). */
export class ErrorEnvelope {
  success: false;
  code: ErrorCode;
  /** For people; may change between versions. */
  message: string;
  /** Field name (dotted path for nested fields) → messages; present on `validation_error`. */
  errors?: FieldErrors;
  /** Whole seconds to wait before retrying (`rate_limit_exceeded`). */
  retry_after?: number;
}
