import { notFound } from '../errors';

/** A numeric id from the URL; anything else cannot name an object, so it is a 404 like an unknown id. */
export function numericIdParam(value: string, notFoundMessage: string): number {
  if (!/^\d{1,15}$/.test(value)) throw notFound(notFoundMessage);
  return Number(value);
}
