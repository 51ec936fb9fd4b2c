import type { Mode } from '@gateway/contracts';
import type { AppConfig } from '@gateway/platform';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { addressScope } from './special-purpose-addresses';

export interface UrlPolicy {
  mode: Mode;
  /** Hosts (lower case) that pass the address check (on-premises receivers). */
  trustedHosts: readonly string[];
  /** Whether test mode may reach loopback and private networks (WEBHOOK_ALLOW_PRIVATE_TARGETS_IN_TEST_MODE). */
  allowPrivateInTestMode: boolean;
}

/** The URL rules of a mode under the operator's settings. */
export function urlPolicy(mode: Mode, settings: AppConfig['webhooks']): UrlPolicy {
  return { mode, trustedHosts: settings.trustedHosts, allowPrivateInTestMode: settings.allowPrivateTargetsInTestMode };
}

/** Why a URL is refused, or null when it may be registered. Checks the form only (no DNS). */
export function urlFormProblem(raw: string, policy: UrlPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  if (url.protocol !== 'https:' && !(policy.mode === 'test' && url.protocol === 'http:')) {
    return policy.mode === 'live' ? 'must use https:// in live mode' : 'must use https:// or http://';
  }
  if (raw.length > 2048) return 'must be at most 2048 characters';
  return null;
}

/**
 * Whether a resolved address may receive a webhook: a public address always; loopback and private
 * networks only in test mode and only where the operator allows it (a developer's own machine).
 * Link-local (cloud metadata at 169.254.169.254) and every other special-purpose range: never.
 */
export function addressAllowed(address: string, policy: Pick<UrlPolicy, 'mode' | 'allowPrivateInTestMode'>): boolean {
  const scope = addressScope(address);
  return scope === 'public' || (scope === 'local' && policy.mode === 'test' && policy.allowPrivateInTestMode);
}

/** The message of a refused address, at registration and at connect time alike. */
export const PRIVATE_ADDRESS_PROBLEM = 'must not point to a private, loopback, link-local or reserved address';

/** Every address a host name resolves to. Injectable so tests can make a host re-resolve (DNS rebinding). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

/** The system resolver (getaddrinfo, as http.request would use). */
export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (error, found: LookupAddress[]) => (error ? reject(error) : resolve(found))));

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/** Whether the URL's host is one the operator trusts past the address check. */
export function isTrustedHost(raw: string, policy: Pick<UrlPolicy, 'trustedHosts'>): boolean {
  return policy.trustedHosts.includes(hostOf(new URL(raw)));
}

/** Resolves the host and refuses it unless every address is allowed (or the host is trusted). */
export async function urlAddressProblem(raw: string, policy: UrlPolicy, resolve: Resolver = systemResolver): Promise<string | null> {
  const host = hostOf(new URL(raw));
  if (policy.trustedHosts.includes(host)) return null;
  const addresses = isIP(host) ? [host] : await resolve(host).then((found) => found.map((f) => f.address), () => null);
  if (!addresses?.length) return 'host does not resolve';
  return addresses.every((a) => addressAllowed(a, policy)) ? null : PRIVATE_ADDRESS_PROBLEM;
}

/**
 * The connect-time check of a URL whose host is an IP literal (http.request does not call
 * `lookup` for those, so guardedLookup never sees them). Null for a host name or an allowed address.
 */
export function literalAddressProblem(raw: string, policy: UrlPolicy): string | null {
  const host = hostOf(new URL(raw));
  if (!isIP(host) || policy.trustedHosts.includes(host)) return null;
  return addressAllowed(host, policy) ? null : PRIVATE_ADDRESS_PROBLEM;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The error a refused address fails the request with. */
export class AddressNotAllowedError extends Error {
  readonly code = 'EADDRNOTALLOWED';
  constructor() {
    super(`url ${PRIVATE_ADDRESS_PROBLEM}`);
  }
}

/**
 * A `lookup` for http(s).request that checks the addresses actually connected to, so a host that
 * re-resolves to a private address after registration (DNS rebinding) is refused at connect time,
 * before any connection is opened.
 */
export function guardedLookup(policy: UrlPolicy, resolve: Resolver = systemResolver): (hostname: string, options: { all?: boolean }, callback: LookupCallback) => void {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const trusted = policy.trustedHosts.includes(hostname.toLowerCase());
        if (!found.length) return callback(Object.assign(new Error('url host does not resolve'), { code: 'ENOTFOUND' }), '');
        if (!trusted && found.some((a) => !addressAllowed(a.address, policy))) return callback(new AddressNotAllowedError(), '');
        if (options.all) return callback(null, found);
        return callback(null, found[0].address, found[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
