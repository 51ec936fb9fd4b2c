/**
 * Paystack's response envelope. Every JSON answer — success or error — has
 * this shape, so clients can always read `status` and `message`.
 */
export interface Envelope<T> {
  status: boolean;
  message: string;
  data?: T;
}

export function ok<T>(message: string, data: T): Envelope<T> {
  return { status: true, message, data };
}

export function failure(message: string): Envelope<never> {
  return { status: false, message };
}
