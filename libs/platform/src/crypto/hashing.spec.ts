import { constantTimeEqual, sha256Hex } from './hashing';

describe('sha256Hex', () => {
  it('is SHA-256 of the UTF-8 text, in lower-case hex (the digests stored for keys and tokens)', () => {
    // FIPS 180-2's example for "abc", and a text outside ASCII (its UTF-8 bytes are hashed).
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('\u00e9')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });
});

describe('constantTimeEqual', () => {
  it('is true only for the same text', () => {
    expect(constantTimeEqual('sk_test_a', 'sk_test_a')).toBe(true);
    expect(constantTimeEqual('sk_test_a', 'sk_test_b')).toBe(false);
    expect(constantTimeEqual('sk_test_a', 'sk_test_ab')).toBe(false);
  });
});
