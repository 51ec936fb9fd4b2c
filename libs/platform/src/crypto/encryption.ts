import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** One AES-256 key and the id recorded next to everything it encrypts. */
export interface EncryptionKey {
  readonly id: string;
  /** Exactly 32 bytes. */
  readonly key: Buffer;
}

export const ENCRYPTION_KEY_BYTES = 32;
export const ENCRYPTION_KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

const FORMAT_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class DecryptionError extends Error {
  override readonly name = 'DecryptionError';
}

/**
 * Parses `ENCRYPTION_KEYS` (`k2:<base64 32 bytes>,k1:<base64 32 bytes>`, the first is current).
 * Returns an error message naming the problem instead of throwing, for the config validator.
 */
export function parseEncryptionKeys(text: string): EncryptionKey[] | string {
  const keys: EncryptionKey[] = [];
  for (const entry of text.split(',').map((e) => e.trim()).filter(Boolean)) {
    const colon = entry.indexOf(':');
    const id = colon > 0 ? entry.slice(0, colon) : '';
    if (!ENCRYPTION_KEY_ID_PATTERN.test(id)) return 'each entry must be <key id>:<base64 key>, the id of letters, digits, _ or -';
    const key = Buffer.from(entry.slice(colon + 1), 'base64');
    if (key.length !== ENCRYPTION_KEY_BYTES) return `key ${id} must be ${ENCRYPTION_KEY_BYTES} bytes, base64-encoded`;
    if (keys.some((k) => k.id === id)) return `key id ${id} appears twice`;
    keys.push({ id, key });
  }
  return keys.length ? keys : 'must name at least one key';
}

/**
 * AES-256-GCM with key rotation: every ciphertext records the id of the key that sealed it, so
 * old values stay readable after a new key becomes current (listed first), and `needsRotation`
 * tells a re-encryption job what to rewrite.
 *
 * Format: `v1.<key id>.<iv>.<auth tag>.<ciphertext>` (base64url parts). The optional
 * `context` is bound as additional authenticated data, so a ciphertext copied into another row
 * (another user's TOTP secret, say) fails to decrypt.
 */
export class Encryptor {
  private readonly byId: ReadonlyMap<string, Buffer>;

  constructor(private readonly keys: readonly EncryptionKey[]) {
    if (!keys.length) throw new Error('Encryptor needs at least one key');
    for (const { id, key } of keys) {
      if (key.length !== ENCRYPTION_KEY_BYTES) throw new Error(`encryption key ${id} must be ${ENCRYPTION_KEY_BYTES} bytes`);
    }
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  get currentKeyId(): string {
    return this.keys[0].id;
  }

  encrypt(plaintext: string, context = ''): string {
    const { id, key } = this.keys[0];
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [FORMAT_VERSION, id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  /** @throws DecryptionError for a malformed value, an unknown key id or a failed authentication. */
  decrypt(sealed: string, context = ''): string {
    const [version, id, iv, tag, ciphertext, ...rest] = sealed.split('.');
    if (version !== FORMAT_VERSION || rest.length || ciphertext === undefined) throw new DecryptionError('not an encrypted value');
    const key = this.byId.get(id);
    if (!key) throw new DecryptionError(`encryption key ${id} is not configured`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new DecryptionError('the value failed authentication');
    }
  }

  /** The key id a sealed value names, or undefined when it is not one of ours. */
  keyIdOf(sealed: string): string | undefined {
    const [version, id] = sealed.split('.');
    return version === FORMAT_VERSION ? id : undefined;
  }

  /** True when `sealed` was encrypted with a key other than the current one. */
  needsRotation(sealed: string): boolean {
    return this.keyIdOf(sealed) !== this.currentKeyId;
  }
}

// One ephemeral key per process, so every module in it (portal TOTP, webhook secrets…) agrees.
let ephemeralKey: EncryptionKey | undefined;

/**
 * The process's encryptor. Without configured keys, development and test get a random key that
 * lives as long as the process (with a warning: values sealed with it are unreadable after a
 * restart); production never reaches this point without keys, the configuration refuses to load.
 */
export function encryptorFromConfig(
  config: { env: 'development' | 'test' | 'production'; encryptionKeys: readonly EncryptionKey[] },
  warn: (message: string) => void,
): Encryptor {
  if (config.encryptionKeys.length) return new Encryptor(config.encryptionKeys);
  if (config.env === 'production') throw new Error('ENCRYPTION_KEYS is required in production');
  if (!ephemeralKey) {
    ephemeralKey = { id: 'ephemeral', key: randomBytes(ENCRYPTION_KEY_BYTES) };
    warn('ENCRYPTION_KEYS is not set: using an ephemeral key for this process. Encrypted values will not survive a restart. Never run production like this.');
  }
  return new Encryptor([ephemeralKey]);
}
