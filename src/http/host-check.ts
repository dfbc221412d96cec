import { isIP } from 'node:net';
import os from 'node:os';
import type { Clock } from '../time/clock.js';

/**
 * Which Host headers the HTTP server answers. A request whose Host names another machine is refused: a web page
 * whose DNS name was re-pointed at this machine (DNS rebinding) then cannot read or press anything here, and no
 * foreign name ever reaches an image_url. Allowed: loopback names and addresses, every address of this machine's
 * interfaces, its hostname (also `<name>.local` and the first label), the host of http.public_url, each of
 * http.allowed_hosts, and the address the request's socket was accepted on. No Host at all (HTTP/1.0) is allowed:
 * browsers always send one, so its absence is no rebinding.
 */

export interface HostCheckOptions {
  /** http.public_url: its host is allowed. */
  publicUrl?: string | null;
  /** Further names or addresses (http.allowed_hosts), e.g. a DNS name of a reverse proxy. */
  allowedHosts?: readonly string[];
  /** The machine's addresses; default os.networkInterfaces() (read again when an unknown address comes). */
  interfaces?: () => ReturnType<typeof os.networkInterfaces>;
  /** Default os.hostname(). */
  hostname?: () => string;
  /** To read the interfaces again at most once a second. */
  clock: Clock;
}

export type HostVerdict = { ok: true; host: string | null } | { ok: false; host: string };

/** `[::1]:8321` → `::1`; `Example.LAN.:80` → `example.lan`; null when it is not a host[:port]. */
export function hostnameOf(header: string): string | null {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9._-]+))(?::(\d{1,5}))?$/.exec(header.trim());
  if (m === null) return null;
  const name = (m[1] ?? m[2]!).toLowerCase().replace(/\.$/, '');
  return name === '' ? null : unmapped(name);
}

/** `::ffff:192.168.1.5` (an IPv4 peer on a dual-stack socket) → `192.168.1.5`. */
function unmapped(addr: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  return m ? m[1]! : addr.toLowerCase();
}

function isLoopback(name: string): boolean {
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    (isIP(name) === 4 && name.startsWith('127.'))
  );
}

/**
 * How many Host header lines a request has. Node keeps the first in `req.headers.host` and drops the rest, so that a
 * proxy reading the last and this server would disagree about the site asked for; HTTP answers 400 (RFC 9112, 3.2).
 */
export function hostLines(rawHeaders: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'host') n++;
  return n;
}

export class HostCheck {
  readonly #o: HostCheckOptions;
  readonly #fixed = new Set<string>();
  #machine = new Set<string>();
  #readAt = -Infinity;

  constructor(opts: HostCheckOptions) {
    this.#o = opts;
    if (opts.publicUrl) {
      const h = hostnameOf(new URL(opts.publicUrl).host);
      if (h !== null) this.#fixed.add(h);
    }
    for (const a of opts.allowedHosts ?? []) {
      const h = hostnameOf(a);
      if (h !== null) this.#fixed.add(h);
    }
    this.#readMachine();
  }

  #readMachine(): void {
    this.#readAt = this.#o.clock.now();
    const names = new Set<string>();
    const host = (this.#o.hostname ?? os.hostname)().toLowerCase().replace(/\.$/, '');
    if (host !== '') {
      const first = host.split('.')[0]!;
      for (const n of [host, first, `${first}.local`]) names.add(n);
    }
    try {
      for (const list of Object.values((this.#o.interfaces ?? os.networkInterfaces)())) {
        for (const a of list ?? []) names.add(unmapped(a.address.replace(/%.*$/, '')));
      }
    } catch {
      // Some sandboxes refuse the interface list: the socket's own address still counts.
    }
    this.#machine = names;
  }

  /**
   * Whether to answer a request with this Host header that arrived on a socket bound to `localAddress`. `host` is
   * the header when allowed (for URLs), null when there was none.
   */
  check(header: string | undefined, localAddress: string | undefined): HostVerdict {
    if (header === undefined || header === '') return { ok: true, host: null };
    const name = hostnameOf(header);
    if (name === null) return { ok: false, host: header.slice(0, 100) };
    const ok = (): boolean =>
      isLoopback(name) ||
      this.#fixed.has(name) ||
      this.#machine.has(name) ||
      (localAddress !== undefined && unmapped(localAddress.replace(/%.*$/, '')) === name);
    if (ok()) return { ok: true, host: header.trim() };
    // An address that came with DHCP after the start: look once more, at most once a second.
    if (isIP(name) !== 0 && this.#o.clock.now() - this.#readAt >= 1_000) {
      this.#readMachine();
      if (ok()) return { ok: true, host: header.trim() };
    }
    return { ok: false, host: header.slice(0, 100) };
  }
}
