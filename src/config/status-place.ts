import type { StatusPlace } from '../domain/frame-status.js';
import type { Config } from './schema.js';

/**
 * Where the status page is, as a frame that sends its reader there names it ("status page: http://pi.local:8321"):
 * `http.public_url` when set (the address devices already use); else the listen address, with this machine's
 * `.local` name for a wildcard one (0.0.0.0, ::), which mDNS resolves on a home network and the host check accepts.
 * Without an `http` section there is no status page, and the frame says where else to look.
 */
export function statusPlace(options: { http: Config['http']; hostName?: string }): StatusPlace {
  const { http } = options;
  if (http === undefined) return { kind: 'no_page' };
  if (http.public_url !== undefined) return { kind: 'page', url: http.public_url.replace(/\/+$/, '') };
  const at = http.listen.lastIndexOf(':');
  const host = http.listen.slice(0, at);
  const port = http.listen.slice(at + 1);
  // Port 0 is any free port: which one is known only to the running daemon.
  if (Number(port) === 0) return { kind: 'page_unknown' };
  const wildcard = host === '0.0.0.0' || host === '[::]' || host === '::';
  // Asked for here, not imported: only a wildcard address needs it, and every cold `render` loads this file.
  const name = wildcard
    ? `${(options.hostName ?? process.getBuiltinModule('node:os').hostname()).split('.')[0]}.local`
    : host;
  return { kind: 'page', url: `http://${name}${port === '80' ? '' : `:${port}`}` };
}
