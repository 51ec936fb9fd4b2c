/**
 * An error that maps one-to-one onto a Paystack-style error response:
 * `{ status: false, message }` with the given HTTP status code.
 *
 * Services throw these; the app-wide error handler turns them into the wire
 * envelope, so route handlers never build error bodies by hand.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 400 — the request is malformed or not allowed in the object's current state. */
export function badRequest(message: string): ApiError {
  return new ApiError(400, message);
}

/** 404 — the object named in the URL does not exist for this account. */
export function notFound(message: string): ApiError {
  return new ApiError(404, message);
}
