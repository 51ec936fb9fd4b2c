export const API_KEY_KINDS = ['secret', 'publishable'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

/** `sk_test_`, `sk_live_`, `pk_test_`, `pk_live_` followed by the random part. */
export const API_KEY_PATTERN = /^(sk|pk)_(test|live)_[A-Za-z0-9_-]{20,100}$/;
