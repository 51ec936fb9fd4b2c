import type { WebhookAttemptError } from '@gateway/contracts';

/** Where a failed request had got to, so a failure mid-handshake reads as TLS whatever its code. */
export interface RequestProgress {
  tls: boolean;
  tcpConnected: boolean;
  tlsEstablished: boolean;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ENODATA']);
/** OpenSSL and certificate-verification codes as Node reports them. */
const TLS_CODE = /^ERR_(TLS|SSL)_|^EPROTO$|CERT|SELF_SIGNED|^UNABLE_TO_|HOSTNAME_MISMATCH/;

/**
 * The short class a failed connection is logged as. The socket's own message (`ECONNREFUSED
 * ::1:3202`, `socket hang up`, a certificate's names) never reaches the log a merchant reads: it
 * would tell which ports and services the URL can reach.
 */
export function classifyRequestError(error: NodeJS.ErrnoException, progress: RequestProgress): WebhookAttemptError {
  const code = error.code ?? '';
  if (code === 'EADDRNOTALLOWED') return 'url_not_allowed';
  if (DNS_CODES.has(code) || error.syscall === 'getaddrinfo') return 'dns';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ETIMEDOUT') return 'timeout';
  if (code.startsWith('HPE_')) return 'invalid_response';
  if (TLS_CODE.test(code) || (progress.tls && progress.tcpConnected && !progress.tlsEstablished)) return 'tls';
  return 'connection';
}
