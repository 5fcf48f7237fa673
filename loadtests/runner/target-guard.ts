/**
 * No accidental load on someone's production: only loopback targets unless --allow-remote.
 * Checked once per origin (cached), so the hot path costs one Map lookup.
 */
import { isIP } from 'node:net';

/** A URL's hostname without the brackets of an IPv6 literal (`[::1]` → `::1`). */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1');
}

export function isLoopbackHost(hostname: string): boolean {
  const host = bareHost(hostname).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || /^::ffff:127\./.test(host);
  return false;
}

export class TargetGuard {
  private readonly allowed = new Map<string, boolean>();
  constructor(private readonly allowRemote: boolean) {}

  /** `origin` is `scheme://host[:port]`. */
  check(origin: string): void {
    let ok = this.allowed.get(origin);
    if (ok === undefined) {
      ok = this.allowRemote || isLoopbackHost(new URL(origin).hostname);
      this.allowed.set(origin, ok);
    }
    if (!ok)
      throw new RemoteTargetError(
        `refusing to send load to ${origin}: only loopback targets (127.0.0.0/8, localhost, ::1) ` +
          'are allowed; pass --allow-remote if you really mean to load a remote host',
      );
  }
}

export class RemoteTargetError extends Error {
  override name = 'RemoteTargetError';
}
