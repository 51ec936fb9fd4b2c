import { ERROR_HTTP_STATUS, isErrorCode } from './error-code';

describe('error code catalog', () => {
  // The specification's error table, verbatim: code → HTTP status.
  const SPEC_TABLE: Array<[string, number]> = [
    ['validation_error', 400],
    ['invalid_currency', 400],
    ['invalid_charge_at', 400],
    ['split_shares_exceed_total', 400],
    ['authentication_failed', 401],
    ['insufficient_scope', 403],
    ['ip_not_allowed', 403],
    ['payment_not_found', 404],
    ['virtual_account_exists', 409],
    ['schedule_already_triggered', 409],
    ['insufficient_wallet_balance', 422],
    ['rate_limit_exceeded', 429],
    ['gateway_timeout', 504],
    ['internal_error', 500],
  ];

  it.each(SPEC_TABLE)('answers %s with HTTP %i as the specification says', (code, status) => {
    expect(isErrorCode(code)).toBe(true);
    expect(ERROR_HTTP_STATUS[code as keyof typeof ERROR_HTTP_STATUS]).toBe(status);
  });

  it.each([
    ['invalid_json', 400],
    ['payload_too_large', 413],
    ['not_found', 404],
    ['live_mode_required', 403],
    ['live_mode_not_enabled', 403],
    ['idempotency_key_reused', 422],
    ['idempotency_key_in_progress', 409],
  ])('answers %s with HTTP %i as decisions.md says', (code, status) => {
    expect(ERROR_HTTP_STATUS[code as keyof typeof ERROR_HTTP_STATUS]).toBe(status);
  });

  it('answers capability_not_supported with HTTP 422: a request the configured provider cannot serve (docs/provider-adapter.md)', () => {
    expect(ERROR_HTTP_STATUS.capability_not_supported).toBe(422);
  });

  it('does not mistake unknown strings or inherited keys for codes', () => {
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode('payment_failed_somehow')).toBe(false);
  });
});
