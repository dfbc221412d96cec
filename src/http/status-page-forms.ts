import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RefusalLog } from '../log/refusal-log.js';
import { readBody, sendText } from '../shared/http-respond.js';
import { normalizeMac } from '../trmnl/mac.js';
import type { TrmnlPairing } from '../trmnl/pairing.js';
import type { HttpDeps } from './deps.js';
import { prefixOf, type Ingress } from './ingress.js';
import { PAIR_FORM_FIELD, PairFormTokens, W_HTTP_PAIR_REFUSED } from './pair-form-token.js';
import { formatWhen } from './status-page-model.js';

/**
 * The status page's two buttons, as the server takes their POSTs: refresh a display now, and open pairing of a
 * TRMNL device. Both spend or open something, so both are refused from a page of another site (sameOrigin); pairing
 * also needs the form token of a page this process made. Each answers with a redirect back to the page, whose notice
 * says what happened.
 */

export interface StatusPageFormsOptions {
  /** The daemon's refresh, the TRMNL devices, the zone and clock for the times shown, the log. */
  deps: Pick<HttpDeps, 'refresh' | 'refreshUnavailable' | 'trmnlDevices' | 'timezone' | 'clock' | 'logger'>;
  /** Where a pairing button opens pairing. */
  pairing: TrmnlPairing;
  /** Refused pairing requests in the log, at most one line a minute per source. */
  refusals: RefusalLog;
}

/** One TRMNL device's row on the status page: its pairing state and the token its button posts. */
export interface TrmnlPairRow {
  mac: string;
  /** When pairing closes, as the page shows it; null: not open. */
  pairingUntil: string | null;
  token: string;
}

export class StatusPageForms {
  readonly #o: StatusPageFormsOptions;
  /** Keyed anew at every start: a pairing button works only from a page this process made. */
  readonly #tokens: PairFormTokens;

  constructor(o: StatusPageFormsOptions) {
    this.#o = o;
    this.#tokens = new PairFormTokens({ clock: o.deps.clock });
  }

  /** The TRMNL devices of a display, until when pairing is open, and the pairing form's token. */
  trmnlRows(id: string): TrmnlPairRow[] {
    const { deps, pairing } = this.#o;
    return (deps.trmnlDevices ?? [])
      .filter((d) => d.display === id)
      .map((d) => {
        const mac = normalizeMac(d.mac) ?? d.mac;
        const until = pairing.openUntil(mac);
        return {
          mac,
          pairingUntil: until === null ? null : formatWhen(new Date(until), deps.timezone, deps.clock.now()),
          token: this.#tokens.issue(mac),
        };
      });
  }

  /** The page's notice after a pairing button (`?pairing=<MAC>`), while that pairing is open. */
  pairingNotice(raw: string | null): string | null {
    const { deps, pairing } = this.#o;
    const mac = raw === null ? null : normalizeMac(raw);
    const until = mac === null ? null : pairing.openUntil(mac);
    if (mac === null || until === null) return null;
    return `Pairing of ${mac} is open until ${formatWhen(new Date(until), deps.timezone, deps.clock.now()) ?? ''}: wake the device (press its button) to pair.`;
  }

  /** POST /displays/<id>/refresh: refresh now, within budget; the daemon's gate and budget decide, not this. */
  refresh(req: IncomingMessage, res: ServerResponse, id: string, ingress: Ingress): void {
    const { deps } = this.#o;
    req.resume();
    if (deps.refresh === undefined) return sendText(req, res, 404, 'refresh is not available');
    if (!sameOrigin(req, ingress)) return sendText(req, res, 403, 'refresh must come from this server’s own page');
    if (deps.refreshUnavailable) return sendText(req, res, 409, deps.refreshUnavailable);
    const ref = deps.refresh;
    void Promise.resolve()
      .then(() => ref(id))
      .catch((err: unknown) => deps.logger?.error({ display: id, err }, 'refresh from the status page failed'));
    res.writeHead(303, { Location: `${prefixOf(ingress)}/?refreshed=${encodeURIComponent(id)}`, 'Content-Length': 0 });
    res.end();
  }

  /**
   * POST /trmnl/<MAC>/pair: opens pairing of one TRMNL device for a few minutes. Only with the token of a page this
   * process made (pair-form-token.ts): a MAC is no secret, and a bare POST carries no Origin to refuse.
   */
  async pair(req: IncomingMessage, res: ServerResponse, raw: string, ingress: Ingress): Promise<void> {
    const { deps, pairing, refusals } = this.#o;
    const mac = normalizeMac(raw);
    if (mac === null || !(deps.trmnlDevices ?? []).some((d) => normalizeMac(d.mac) === mac)) {
      req.resume();
      return sendText(req, res, 404, 'no such TRMNL device');
    }
    const refuse = (reason: string, text: string): void => {
      refusals.refuse(req.socket.remoteAddress, W_HTTP_PAIR_REFUSED, { mac, reason });
      sendText(req, res, 403, text);
    };
    if (!sameOrigin(req, ingress)) {
      req.resume();
      return refuse('other site', 'pairing must be opened from this server’s own page');
    }
    // The form is one short field: anything longer is not the page's.
    const body = await readBody(req, 1024);
    const token = body.ok ? new URLSearchParams(body.text).get(PAIR_FORM_FIELD) : null;
    const check = this.#tokens.check(mac, token);
    if (!check.ok) {
      const why =
        check.reason === 'missing'
          ? 'without the status page’s form token'
          : `with ${check.reason === 'expired' ? 'an expired' : 'a wrong'} form token`;
      return refuse(
        `${check.reason} token`,
        `pairing refused: the request came ${why}; open this server’s status page, reload it, and press its "Pair TRMNL" button (or run outfit-display pair)`,
      );
    }
    pairing.open([mac]);
    res.writeHead(303, { Location: `${prefixOf(ingress)}/?pairing=${mac.replace(/:/g, '-')}`, 'Content-Length': 0 });
    res.end();
  }
}

/**
 * A POST from a page of another site must not spend credits: its Origin or Sec-Fetch-Site gives it away. Through
 * the ingress proxy the page's origin is Home Assistant's, which the proxy names in X-Forwarded-Host.
 */
function sameOrigin(req: IncomingMessage, ingress: Ingress): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.origin;
  if (origin === undefined || origin === 'null') return origin === undefined;
  try {
    const own = ingress.kind === 'proxy' && ingress.forwardedHost !== null ? ingress.forwardedHost : req.headers.host;
    return new URL(origin).host === own;
  } catch {
    return false;
  }
}
