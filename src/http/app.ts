import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { redactor } from '../shared/redactor.js';
import type { HttpDeps } from './deps.js';
import { etagOf } from './etag.js';
import type { DisplayViewSource, ShownView } from '../state/display-views.js';
import { overallHealth } from './health.js';
import { methodNotAllowed, send, sendConditional, sendJson, sendText } from '../shared/http-respond.js';
import { renderStatusPage } from './status-page.js';
import { displayRows, statusPageModel } from './status-page-model.js';
import { StatusPageForms } from './status-page-forms.js';
import { HostCheck, hostLines } from './host-check.js';
import { ingressOf, prefixOf, type Ingress } from './ingress.js';
import type { RefusalLog } from '../log/refusal-log.js';
import { normalizeMac } from '../trmnl/mac.js';
import { TrmnlApi } from '../trmnl/trmnl-api.js';
import { blankTrmnlPng, type TrmnlImages } from '../trmnl/images.js';
import { refreshRateFor } from '../trmnl/refresh-rate.js';
import { kindleReport } from '../trmnl/kindle-query.js';
import { deviceRow } from './device-rows.js';
import type { TrmnlPairing } from '../trmnl/pairing.js';
import type { FirmwareOfferRow } from '../trmnl/firmware-offers.js';
import { serveFirmware } from './firmware-route.js';
import { firmwareLine } from './firmware-rows.js';
import { displayStateJson } from './display-state-json.js';

/**
 * The HTTP frame server as a request listener, apart from any socket (server.ts listens):
 *   GET/HEAD /displays/<id>/frame.png   the frame (ETag = content hash, Last-Modified = when it first appeared; 304)
 *   GET/HEAD /displays/<id>/frame.bmp   the 1-bit BMP (black/white panels)
 *   GET/HEAD /displays/<id>/sleep.txt   seconds until the next frame (X-Refresh-Rate's value), for a sleeping ESPHome device
 *   GET/HEAD /displays/<id>/next.json   the same as {sleep_s, next_update_at, etag}
 *   GET/HEAD /displays/<id>/state.json  the Recommendation + fetched_at, next_update_at, stale, status, frame
 *   POST     /displays/<id>/refresh     refresh now, within budget (the status page's button)
 *   GET/HEAD /healthz                   200 while every display is fine, else 503 with the reason
 *   GET/HEAD /                          the status page
 *   TRMNL:   /api/setup, /api/setup/, /api/display, /api/current_screen, /api/models, POST /api/log,
 *            /displays/<id>/trmnl/<filename>.<png|bmp>, /trmnl/firmware/<version>.bin (a firmware offered, firmware-route.ts)
 *   POST     /trmnl/<MAC>/pair           open pairing for a TRMNL device (the status page's button, with its form token)
 * The two POSTs are the status page's buttons (status-page-forms.ts).
 * A frame request with a Kindle's `batteryLevel` / `isCharging` query records that display's Kindle (kindle-query.ts).
 * A request with two Host headers gets 400, and one whose Host names another machine 421, on every path (host-check.ts),
 * unless it comes through Home Assistant's ingress proxy, whose path prefix (X-Ingress-Path) the page's links and
 * redirects then carry (ingress.ts).
 */

export interface HttpAppOptions {
  deps: HttpDeps;
  /** What every page and file shows of a display (the frames included). */
  views: DisplayViewSource;
  trmnl: TrmnlImages;
  pairing: TrmnlPairing;
  /** Refused requests in the log, at most one line a minute per source. */
  refusals: RefusalLog;
}

const PAGE_CSP =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
/** Through the ingress proxy the page is shown in a frame of Home Assistant's own page, which has the page's origin. */
const INGRESS_CSP = PAGE_CSP.replace("frame-ancestors 'none'", "frame-ancestors 'self'");

/** A Host header we are willing to put into a URL; anything else falls back to the socket's own address. */
const SAFE_HOST = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/;

/** A device's button press, as the TRMNL endpoints take it: true when the refresh was made, false when refused. */
function pressOf(refresh: NonNullable<HttpDeps['refresh']>): (id: string) => Promise<boolean> {
  return (id) => refresh(id).then((r) => r !== null && r.refused !== true);
}

export function buildHttpApp(opts: HttpAppOptions): RequestListener {
  const { deps, views, trmnl, pairing, refusals } = opts;
  const log = deps.logger;
  const scrub = redactor([...(deps.secrets ?? []), ...(deps.trmnlTokens?.values() ?? [])]);
  const ids = new Set(deps.displays.map((d) => d.id));
  const api = new TrmnlApi({
    devices: deps.trmnlDevices ?? [],
    tokens: deps.trmnlTokens ?? new Map(),
    images: trmnl,
    view: (id) => shown(id),
    nextUpdateAt: (id) => nextUpdate(id),
    ...(deps.devices !== undefined && { book: deps.devices }),
    // Also without a refresh reserve: the gate refuses the press and the refusal is shown where HA's would be.
    ...(deps.refresh !== undefined && { press: pressOf(deps.refresh) }),
    ...(deps.pressWaitMs !== undefined && { pressWaitMs: deps.pressWaitMs }),
    ...(deps.vote !== undefined && { vote: deps.vote }),
    clock: deps.clock,
    refreshMarginS: deps.refreshMarginS,
    pairing,
    ...(deps.firmware !== undefined && { firmware: deps.firmware }),
    refusals,
    logger: log,
  });
  const hosts = new HostCheck({ publicUrl: deps.publicUrl, allowedHosts: deps.allowedHosts, clock: deps.clock });
  const forms = new StatusPageForms({ deps, pairing, refusals });

  function nextUpdate(id: string): Date | null {
    return views.view(id)?.nextUpdateAt ?? null;
  }

  /** The display's view when a frame is on the wall. */
  function shown(id: string): ShownView | null {
    const v = views.view(id);
    return v?.kind === 'shown' ? v : null;
  }

  function baseUrl(req: IncomingMessage): string {
    if (deps.publicUrl) return deps.publicUrl.replace(/\/+$/, '');
    const host = req.headers.host;
    if (host !== undefined && SAFE_HOST.test(host)) return `http://${host}`;
    const addr = req.socket.localAddress ?? '127.0.0.1';
    return `http://${addr.includes(':') ? `[${addr}]` : addr}:${req.socket.localPort ?? 80}`;
  }

  function frameFile(req: IncomingMessage, res: ServerResponse, id: string, kind: 'png' | 'bmp', url: URL): void {
    const refreshRate = refreshRateFor(
      views.view(id)?.nextUpdateAt ?? null,
      deps.clock.now(),
      deps.refreshMarginS ?? 30,
    );
    const kindle = kindleReport(url.searchParams, id, refreshRate, new Date(deps.clock.now()));
    if (kindle !== null) deps.devices?.report(kindle);
    const entry = shown(id);
    if (entry === null) {
      sendText(req, res, 503, `display "${id}" has no frame yet`, { 'Retry-After': 30 });
      return;
    }
    const body = kind === 'png' ? entry.frame.png : entry.frame.bmp;
    if (body === null) {
      sendText(req, res, 404, `display "${id}" has no BMP: its panel (${entry.display.panel}) is not black and white`);
      return;
    }
    sendConditional(req, res, {
      body,
      contentType: kind === 'png' ? 'image/png' : 'image/bmp',
      etag: etagOf(entry.frame.hash, kind === 'bmp' ? '-bmp' : ''),
      lastModified: entry.frameSince,
      // For pulling devices that do not speak TRMNL: how long to sleep before asking again.
      headers: { 'X-Refresh-Rate': refreshRate },
    });
  }

  /**
   * For a device that sleeps between frames (docs/guides/esphome.md): ESPHome's online_image keeps no custom header, so
   * X-Refresh-Rate never reaches its YAML; http_request can read a body, and a plain number is the easiest to parse.
   */
  function wake(req: IncomingMessage, res: ServerResponse, id: string, kind: 'txt' | 'json'): void {
    const next = views.view(id)?.nextUpdateAt ?? null;
    const sleepS = refreshRateFor(next, deps.clock.now(), deps.refreshMarginS ?? 30);
    const entry = shown(id);
    if (kind === 'txt') return sendText(req, res, 200, String(sleepS), { 'Cache-Control': 'no-store' });
    sendJson(req, res, 200, {
      sleep_s: sleepS,
      next_update_at: next === null ? null : next.toISOString(),
      etag: entry === null ? null : etagOf(entry.frame.hash),
    });
  }

  /** The firmware offers to a display's TRMNL devices (trmnl.firmware), for the status page and state.json. */
  async function firmwareRows(id: string): Promise<FirmwareOfferRow[]> {
    if (deps.firmware === undefined) return [];
    const macs = new Set((deps.trmnlDevices ?? []).filter((d) => d.display === id).map((d) => normalizeMac(d.mac)));
    return (await deps.firmware.rows()).filter((r) => macs.has(r.mac));
  }

  function stateJson(
    req: IncomingMessage,
    res: ServerResponse,
    id: string,
    base: string,
    firmware: FirmwareOfferRow[],
  ): void {
    const view = views.view(id);
    if (view === null) return sendText(req, res, 404, 'not found');
    const body = displayStateJson({
      id,
      view,
      base,
      timeZone: deps.timezone,
      budget: views.budget(),
      devices: deps.devices?.list(id) ?? [],
      firmware: deps.firmware === undefined ? null : firmware,
      scrub,
    });
    sendJson(req, res, 200, body);
  }

  function healthz(req: IncomingMessage, res: ServerResponse): void {
    const h = overallHealth(displayRows(deps, views, scrub).map((v) => v.health));
    sendJson(req, res, h.ok ? 200 : 503, h);
  }

  async function page(req: IncomingMessage, res: ServerResponse, url: URL, ingress: Ingress): Promise<void> {
    const notice = url.searchParams.get('refreshed');
    const rows = displayRows(deps, views, scrub);
    for (const r of rows) {
      r.page.trmnl = forms.trmnlRows(r.page.id);
      r.page.devices = (deps.devices?.list(r.page.id) ?? []).map((d) => deviceRow(d, deps.timezone, deps.clock.now()));
      r.page.firmware = (await firmwareRows(r.page.id)).map((f) => firmwareLine(f, deps.timezone, deps.clock.now()));
    }
    const model = statusPageModel(
      deps,
      views.budget(),
      rows,
      notice !== null && ids.has(notice)
        ? `Refresh of ${notice} requested.`
        : forms.pairingNotice(url.searchParams.get('pairing')),
      scrub,
    );
    const framed = ingress.kind === 'proxy';
    send(req, res, 200, renderStatusPage({ ...model, base: prefixOf(ingress) }), {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': framed ? INGRESS_CSP : PAGE_CSP,
      'X-Frame-Options': framed ? 'SAMEORIGIN' : 'DENY',
    });
  }

  function trmnlFile(req: IncomingMessage, res: ServerResponse, id: string, name: string, ext: string): void {
    const img = trmnl.byName(id, name, ext);
    if (img === null) {
      sendText(req, res, 404, 'no such image (it may have been replaced by a newer one)');
      return;
    }
    sendConditional(req, res, {
      body: img.body,
      contentType: img.contentType,
      etag: `"${img.filename}"`,
      lastModified: img.since,
    });
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const m = req.method ?? 'GET';
    const read = m === 'GET' || m === 'HEAD';
    if (hostLines(req.rawHeaders) > 1) {
      refusals.refuse(req.socket.remoteAddress, 'W_HTTP_HOST_DUPLICATE', { path: path.slice(0, 100) });
      req.resume();
      return sendText(req, res, 400, 'more than one Host header');
    }
    const ingress = ingressOf(req, deps.ingressProxies);
    // Through the ingress proxy the Host is Home Assistant's own name, and the proxy admits only its logged-in users.
    const host =
      ingress.kind === 'proxy' ? { ok: true as const } : hosts.check(req.headers.host, req.socket.localAddress);
    if (!host.ok) {
      refusals.refuse(req.socket.remoteAddress, 'W_HTTP_HOST_REFUSED', { host: host.host, path: path.slice(0, 100) });
      req.resume();
      return sendText(req, res, 421, 'this server does not answer for that Host; see http.allowed_hosts');
    }
    const p = /^\/trmnl\/([0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5})\/pair$/.exec(path);
    if (p !== null)
      return m === 'POST' ? await forms.pair(req, res, p[1]!, ingress) : methodNotAllowed(req, res, ['POST']);
    if (path === '/' || path === '/healthz') {
      if (!read) return methodNotAllowed(req, res, ['GET', 'HEAD']);
      if (path === '/') await pairing.reload();
      return path === '/' ? await page(req, res, url, ingress) : healthz(req, res);
    }
    if (path === '/api/setup' || path === '/api/setup/' || path === '/api/display') {
      if (m !== 'GET') return methodNotAllowed(req, res, ['GET']);
      return path === '/api/display'
        ? await api.display(req, res, baseUrl(req))
        : await api.setup(req, res, baseUrl(req));
    }
    if (path === '/api/current_screen') {
      if (m !== 'GET') return methodNotAllowed(req, res, ['GET']);
      return await api.currentScreen(req, res, baseUrl(req));
    }
    if (path === '/api/models') {
      if (!read) return methodNotAllowed(req, res, ['GET', 'HEAD']);
      return api.models(req, res);
    }
    if (path === '/api/log') {
      if (m !== 'POST') return methodNotAllowed(req, res, ['POST']);
      return api.log(req, res);
    }
    const fw = /^\/trmnl\/firmware\/([0-9A-Za-z._-]{1,40})\.bin$/.exec(path);
    if (fw !== null) {
      if (!read) return methodNotAllowed(req, res, ['GET', 'HEAD']);
      if (deps.firmware === undefined) return sendText(req, res, 404, 'not found');
      return await serveFirmware(req, res, deps.firmware, fw[1]!, log);
    }
    if (path === '/trmnl/setup.png') {
      if (!read) return methodNotAllowed(req, res, ['GET', 'HEAD']);
      return sendConditional(req, res, {
        body: blankTrmnlPng(),
        contentType: 'image/png',
        etag: '"setup"',
        lastModified: new Date(0),
      });
    }
    const d =
      /^\/displays\/([a-z0-9_-]+)\/(frame\.png|frame\.bmp|state\.json|sleep\.txt|next\.json|refresh|trmnl\/(outfit-[0-9a-f]{8})\.(png|bmp))$/.exec(
        path,
      );
    if (d === null || !ids.has(d[1]!)) return sendText(req, res, 404, 'not found');
    const id = d[1]!;
    if (d[2] === 'refresh')
      return m === 'POST' ? forms.refresh(req, res, id, ingress) : methodNotAllowed(req, res, ['POST']);
    if (!read) return methodNotAllowed(req, res, ['GET', 'HEAD']);
    if (d[2] === 'frame.png' || d[2] === 'frame.bmp')
      return frameFile(req, res, id, d[2] === 'frame.png' ? 'png' : 'bmp', url);
    if (d[2] === 'sleep.txt' || d[2] === 'next.json') return wake(req, res, id, d[2] === 'sleep.txt' ? 'txt' : 'json');
    if (d[2] === 'state.json') return stateJson(req, res, id, prefixOf(ingress), await firmwareRows(id));
    return trmnlFile(req, res, id, d[3]!, d[4]!);
  }

  return (req, res) => {
    route(req, res).catch((err: unknown) => {
      log?.error({ url: req.url?.slice(0, 200), err }, 'HTTP request failed');
      if (!res.headersSent) sendText(req, res, 500, 'internal error');
      else res.destroy();
    });
  };
}
