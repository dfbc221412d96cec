import type { IncomingMessage } from 'node:http';

/**
 * Home Assistant's ingress: the status page in HA's sidebar, proxied by the Supervisor under a path prefix that it
 * gives in the `X-Ingress-Path` request header (`/api/hassio_ingress/<token>`). The proxy forwards the browser's own
 * headers (Host and Origin name Home Assistant, not us) and adds X-Forwarded-Host; HA shows the page in an iframe.
 *
 * Two levels of belief:
 *  - the prefix, from any request whose header is a plain path: it only shapes the page's own links, and a browser
 *    never sends this header to us on its own, so it cannot be used to mislead one;
 *  - from the Supervisor's proxy (its address on the add-on network), also: the Host check is skipped (the Host is
 *    Home Assistant's, and the proxy let the request through only with a Home Assistant login), the same-origin
 *    check compares the Origin with X-Forwarded-Host, and Home Assistant's own page may show ours in a frame.
 */

/** Where the Supervisor's ingress proxy connects from: its fixed address on the add-on network (hassio). */
const INGRESS_PROXY_ADDRESSES: readonly string[] = ['172.30.32.2'];

/** A path of plain segments (`/api/hassio_ingress/AbC-12_x`): nothing that could end an attribute or start a URL. */
const SAFE_PREFIX = /^(?:\/[A-Za-z0-9._~-]+)+$/;

export type Ingress =
  /** No ingress header, or one that is not a plain path (ignored). */
  | { kind: 'none' }
  /** A plain prefix, from anyone: used for links only. */
  | { kind: 'prefix'; prefix: string }
  /** From the ingress proxy itself. */
  | { kind: 'proxy'; prefix: string; forwardedHost: string | null };

function unmapped(addr: string): string {
  return addr.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}

/** The request's ingress, if any; `proxies` default INGRESS_PROXY_ADDRESSES (tests name 127.0.0.1). */
export function ingressOf(req: IncomingMessage, proxies: readonly string[] = INGRESS_PROXY_ADDRESSES): Ingress {
  const raw = req.headers['x-ingress-path'];
  const header = typeof raw === 'string' ? raw.replace(/\/+$/, '') : '';
  if (header.length > 256 || !SAFE_PREFIX.test(header) || header.split('/').some((s) => s === '.' || s === '..'))
    return { kind: 'none' };
  const peer = unmapped(req.socket.remoteAddress ?? '');
  if (!proxies.includes(peer)) return { kind: 'prefix', prefix: header };
  const fwd = req.headers['x-forwarded-host'];
  const forwardedHost = typeof fwd === 'string' ? (fwd.split(',')[0]?.trim() ?? null) : null;
  return { kind: 'proxy', prefix: header, forwardedHost: forwardedHost === '' ? null : forwardedHost };
}

/** The prefix to put before a root path of ours ('' without ingress). */
export function prefixOf(ingress: Ingress): string {
  return ingress.kind === 'none' ? '' : ingress.prefix;
}
