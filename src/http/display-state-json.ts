import type { BudgetStatus } from '../budget/governor-types.js';
import type { Redact } from '../shared/redactor.js';
import { creditsView } from '../state/credits-view.js';
import { deviceJson, type DeviceEntry } from '../state/device-book.js';
import type { DisplayView } from '../state/display-views.js';
import type { OutputProblem } from '../state/output-problem.js';
import { displayState } from '../state/state-json.js';
import type { StoreProblem } from '../store/store-error.js';
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
 * then what only this page tells (its problems, devices, credits and frame).
 */
export function displayStateJson(o: DisplayStateJsonOptions): object {
  const { id, view: v, timeZone: tz, scrub } = o;
  const entry = v.kind === 'shown' ? v : null;
  const status = entry?.status ?? null;
  const { lastError: err, refreshRefused: refused } = v;
  const problem = (p: StoreProblem | OutputProblem | null): object | null =>
    p === null ? null : { code: p.code, file: p.file, message: scrub(p.message), since: timeOrNull(p.since, tz) };
  return {
    ...displayState(v, tz),
    display: id,
    status: status?.kind ?? 'none',
    status_detail: status !== null && 'message' in status ? scrub(status.message) : null,
    last_success_at: timeOrNull(v.lastSuccessAt, tz),
    last_error: err === null ? null : { code: err.code, message: scrub(err.message), at: timeOrNull(err.at, tz) },
    state_problem: problem(v.storeProblem),
    output_problem: problem(v.outputProblem),
    render_problem: v.renderProblem === null ? null : { code: v.renderProblem.code, message: scrub(v.renderProblem.message), since: timeOrNull(v.renderProblem.since, tz) },
    // Only for a display with a panel on this machine's header.
    ...(v.panel !== null && {
      attached_panel: {
        panel: v.panel.panel,
        last_refresh_at: timeOrNull(v.panel.lastRefreshAt, tz),
        problem: v.panel.problem === null ? null : { code: v.panel.problem.code, message: scrub(v.panel.problem.message), since: timeOrNull(v.panel.problem.since, tz) },
      },
    }),
    tag_problem: v.tagProblem === null ? null : { mac: v.tagProblem.mac, code: v.tagProblem.code, message: scrub(v.tagProblem.message), since: timeOrNull(v.tagProblem.since, tz) },
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
