/**
 * Every error code the gateway answers with, and the HTTP status it travels with.
 * One table: the API's exception filter renders from it and the OpenAPI document lists it.
 */
export const ERROR_HTTP_STATUS = {
  validation_error: 400,
  invalid_json: 400,
  invalid_currency: 400,
  invalid_charge_at: 400,
  split_shares_exceed_total: 400,
  // Portal: a verification, reset or invitation link that is unknown, used or expired.
  invalid_token: 400,
  authentication_failed: 401,
  totp_invalid: 401,
  insufficient_scope: 403,
  ip_not_allowed: 403,
  live_mode_not_enabled: 403,
  email_not_verified: 403,
  live_mode_required: 403,
  // Sandbox controls with a live key.
  test_mode_required: 403,
  // A provider callback whose signature matches neither mode's secret.
  invalid_signature: 403,
  // Portal: CSRF header missing or wrong; role does not allow the action; TOTP code required.
  csrf_token_invalid: 403,
  insufficient_role: 403,
  totp_required: 403,
  // Every key and session of an account an administrator suspended (until reactivated).
  account_suspended: 403,
  not_found: 404,
  payment_not_found: 404,
  authorization_not_found: 404,
  customer_not_found: 404,
  subaccount_not_found: 404,
  refund_not_found: 404,
  payment_intent_not_found: 404,
  transfer_not_found: 404,
  virtual_account_not_found: 404,
  plan_not_found: 404,
  subscription_not_found: 404,
  invoice_not_found: 404,
  settlement_not_found: 404,
  dispute_not_found: 404,
  webhook_not_found: 404,
  webhook_log_not_found: 404,
  batch_not_found: 404,
  developer_not_found: 404,
  api_key_not_found: 404,
  user_not_found: 404,
  export_not_found: 404,
  // No request with this X-Request-Id left a trace in the caller's account and mode (GET /requests/{request_id}).
  request_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_state: 409,
  customer_exists: 409,
  subaccount_exists: 409,
  virtual_account_exists: 409,
  // A subscription to a plan that was archived (existing subscriptions continue).
  plan_archived: 409,
  schedule_already_triggered: 409,
  last_owner: 409,
  // Downloading an export that is still queued or running, or that failed.
  export_not_ready: 409,
  idempotency_key_in_progress: 409,
  // Downloading an export whose file was deleted (kept 7 days).
  export_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  insufficient_wallet_balance: 422,
  // The configured upstream provider does not offer this for this currency (holds outside ZAR on
  // Paystack, a currency the provider account has not enabled, …): refused before anything moves.
  capability_not_supported: 422,
  // The card issuer refused an authorization hold (payment intents).
  authorization_declined: 402,
  idempotency_key_reused: 422,
  // A payment-link checkout for more than the invoice's amount_due.
  invoice_amount_exceeds_due: 422,
  rate_limit_exceeded: 429,
  // Portal: repeated failed logins or TOTP codes; the message says when to try again.
  too_many_attempts: 429,
  internal_error: 500,
  provider_error: 502,
  service_unavailable: 503,
  gateway_timeout: 504,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_HTTP_STATUS;

export const ERROR_CODES = Object.keys(ERROR_HTTP_STATUS) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_HTTP_STATUS, value);
}
