import type { BudgetStatus } from '../budget/governor-types.js';
import type { Redact } from '../shared/redactor.js';
import { creditsView } from '../state/credits-view.js';
import { deviceJson, type DeviceEntry } from '../state/device-book.js';
import type { DisplayView } from '../state/display-views.js';
import { firstOf, problemJson, type Problem } from '../state/problems.js';
import { displayState } from '../state/state-json.js';
import type { FirmwareOfferRow } from '../trmnl/firmware-offers.js';
import { timeOrNull } from '../time/zoned-time.js';
import { etagOf } from './etag.js';
import { firmwareJson } from './firmware-rows.js';

export interface DisplayStateJsonOptions {
  /** The display's id, as in its URLs. */
  id: string;
  /** What the display shows now. */
  view: DisplayView;
  /** The frame server's URL prefix for the display's links (the ingress path, or ''). */
  base: string;
  /** The zone every time is given in. */
  timeZone: string;
  /** The governor's status, shared by every display; null without a budget. */
  budget: BudgetStatus | null;
  /** The devices that pulled the display's frame (device-book.ts). */
  devices: readonly DeviceEntry[];
  /** The firmware offers to the display's TRMNL devices; null without `trmnl.firmware` (then not in the JSON). */
  firmware: readonly FirmwareOfferRow[] | null;
  /** Takes every secret out of a message before it is shown. */
  scrub: Redact;
}

/**
 * The body of `/displays/<id>/state.json`: the display's state as in `<id>.json` and the MQTT state (state-json.ts),
 * then what only this page tells (its problems, devices, credits and frame). The problems are the view's one list
 * (`problems`); the fields each source has always had (`state_problem`, `tag_problem`, …) are read from it.
 */
export function displayStateJson(o: DisplayStateJsonOptions): object {
  const { id, view: v, timeZone: tz, scrub } = o;
  const entry = v.kind === 'shown' ? v : null;
  const status = entry?.status ?? null;
  const { lastError: err, refreshRefused: refused } = v;
  const time = (iso: string): string | null => timeOrNull(iso, tz);
  // The fixed fields, each the first problem of its source in the list, in the shape they have always had.
  const fixed = (source: string, about?: 'file' | 'mac'): object | null => {
    const p: Problem | null = firstOf(v.problems, source);
    if (p === null) return null;
    return {
      ...(about !== undefined && { [about]: p.detail?.[about] ?? null }),
      code: p.code,
      message: scrub(p.message),
      since: time(p.since),
    };
  };
  return {
    ...displayState(v, tz),
    display: id,
    status: status?.kind ?? 'none',
    status_detail: status !== null && 'message' in status ? scrub(status.message) : null,
    last_success_at: timeOrNull(v.lastSuccessAt, tz),
    last_error: err === null ? null : { code: err.code, message: scrub(err.message), at: timeOrNull(err.at, tz) },
    state_problem: fixed('store', 'file'),
    output_problem: fixed('output', 'file'),
    render_problem: fixed('render'),
    // Only for a display with a panel on this machine's header.
    ...(v.panel !== null && {
      attached_panel: {
        panel: v.panel.panel,
        last_refresh_at: timeOrNull(v.panel.lastRefreshAt, tz),
        problem: fixed('panel'),
      },
    }),
    tag_problem: fixed('tag', 'mac'),
    // Every problem, whichever part reports it.
    problems: v.problems.map((p) => problemJson(p, time, scrub)),
    refresh_refused: refused === null ? null : { message: refused.text, at: timeOrNull(refused.at, tz) },
    devices: o.devices.map((dev) => deviceJson(dev, tz)),
    ...(o.firmware !== null && { firmware_offers: o.firmware.map((r) => firmwareJson(r, tz)) }),
    credits: creditsView(o.budget, tz),
    frame:
      entry === null
        ? null
        : {
            hash: entry.frame.hash,
            etag: etagOf(entry.frame.hash),
            width: entry.frame.width,
            height: entry.frame.height,
            png_bytes: entry.frame.png.length,
            last_modified: timeOrNull(entry.frameSince, tz),
            png: `${o.base}/displays/${encodeURIComponent(id)}/frame.png`,
            bmp: entry.frame.bmp === null ? null : `${o.base}/displays/${encodeURIComponent(id)}/frame.bmp`,
          },
  };
}
