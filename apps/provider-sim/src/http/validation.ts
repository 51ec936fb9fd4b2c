import { badRequest, missingParams } from '../errors';

/**
 * Small, explicit readers for request bodies. Each returns a typed value or
 * throws a 400 whose message names the offending field — the same shape of
 * error Paystack gives, and easy to assert on in tests.
 */

export type RequestBody = Record<string, unknown>;
export type Metadata = Record<string, unknown>;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/**
 * Transaction references: "Only -, ., = and alphanumeric characters are allowed" (PaystackOSS/openapi
 * errors/api-errors.json, "Invalid character in transaction reference") — no underscore.
 */
const REFERENCE_PATTERN = /^[A-Za-z0-9.=-]{1,100}$/;

export function asBody(value: unknown): RequestBody {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('Request body must be a JSON object');
  return value as RequestBody;
}

export function optionalString(body: RequestBody, field: string, maxLength = 500): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  const trimmed = value.trim();
  if (trimmed.length > maxLength) throw badRequest(`${field} must be at most ${maxLength} characters`);
  return trimmed === '' ? undefined : trimmed;
}

export function requireString(body: RequestBody, field: string, maxLength = 500): string {
  const value = optionalString(body, field, maxLength);
  if (value === undefined) throw missingParams(`${field} is required`);
  return value;
}

/** Emails are compared case-insensitively, so they are stored lower-cased. */
export function requireEmail(body: RequestBody, field = 'email'): string {
  const value = requireString(body, field, 254);
  if (!EMAIL_PATTERN.test(value)) throw badRequest(`Invalid ${field}`);
  return value.toLowerCase();
}

export function optionalEmail(body: RequestBody, field: string): string | undefined {
  return body[field] === undefined || body[field] === null ? undefined : requireEmail(body, field);
}

export function optionalReference(body: RequestBody, field = 'reference'): string | undefined {
  const value = optionalString(body, field, 100);
  if (value !== undefined && !REFERENCE_PATTERN.test(value)) {
    throw badRequest('Invalid character in transaction reference');
  }
  return value;
}

export function requireReference(body: RequestBody, field = 'reference'): string {
  const value = optionalReference(body, field);
  if (value === undefined) throw missingParams(`${field} is required`);
  return value;
}

/** Metadata may be an object or (as Paystack also accepts) a JSON string of one. */
export function optionalMetadata(body: RequestBody, field = 'metadata'): Metadata | null {
  let value = body[field];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw badRequest(`${field} must be an object or a JSON string of one`);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest(`${field} must be an object or a JSON string of one`);
  }
  return value as Metadata;
}

/** An absolute http(s) URL, e.g. where the checkout sends the customer back. */
export function optionalHttpUrl(body: RequestBody, field: string): string | undefined {
  const value = optionalString(body, field, 2048);
  if (value === undefined) return undefined;
  if (!isHttpUrl(value)) throw badRequest(`${field} must be an absolute http(s) URL`);
  return value;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function optionalEnum<T extends string>(body: RequestBody, field: string, allowed: readonly T[]): T | undefined {
  const value = body[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw badRequest(`${field} must be one of: ${allowed.join(', ')}`);
  }
  return value as T;
}
