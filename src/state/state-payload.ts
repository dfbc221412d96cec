import { garmentView } from '../domain/garments.js';
import { RECOMMENDATION_OPTIONAL, WEATHER_READINGS, type StoredRecommendation } from '../api/schemas.js';
import type { RefreshNotice } from '../daemon/cycle.js';
import type { FrameStatus } from '../render/frame.js';
import type { StateProblem } from '../store/state-error.js';
import { outputProblemText, type OutputProblem } from '../publish/output-error.js';
import { panelProblemText, type PanelStatus } from '../epd/panel-status.js';
import { creditsView, type CreditsView } from './credits-view.js';
import { isoWithOffset } from '../time/zoned-format.js';

/**
 * The JSON payloads of `<base>/<id>/state` and `<base>/<id>/diagnostics`: pure functions.
 * Times are ISO-8601 with the configured time zone's offset ("2026-01-31T08:00:00.000+01:00"), which Home Assistant
 * timestamp sensors require (a time without an offset is rejected).
 */

/** What the budget governor reports; every field optional so any governor's status() fits. */
export interface BudgetStatusLike {
  spentToday?: number | null;
  spentMonth?: number | null;
  /** null or Infinity: no daily limit. */
  leftToday?: number | null;
  leftMonth?: number | null;
  rateRemaining?: number | null;
  blockedUntil?: Date | string | number | null;
  periodResetsAt?: Date | string | number | null;
  warnings?: readonly string[];
  /** The credit ledger cannot be written (no paid request is sent without a record). */
  stateProblem?: StateProblem | null;
  /** Of the day's counted credits: charged (a 2xx arrived) and unknown (sent, no usable answer). */
  chargedToday?: number | null;
  unknownToday?: number | null;
  unknownMonth?: number | null;
  refusedToday?: number | null;
  /** The service's account is out of credits (402), or null. */
  creditsOut?: { since: Date | string | number; nextTryAt: Date | string | number } | null;
}

export const STATUS_KINDS = ['ok', 'stale', 'key_rejected', 'budget_exhausted', 'credits_out', 'unreachable', 'service_error'] as const;

/** A date-like value as ISO with offset, or null when absent or not a date. */
export function timeOrNull(value: Date | string | number | null | undefined, timeZone: string): string | null {
  if (value === null || value === undefined) return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : isoWithOffset(d, timeZone);
}

function numberOrNull(n: number | null | undefined): number | null {
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** Old data: anything but a fresh, working cycle. */
export function isStale(status: FrameStatus): boolean {
  return status.kind !== 'ok';
}

/** `<base>/<id>/state`: the Recommendation, plus fetched_at, next_update_at and stale. */
export function statePayload(
  rec: StoredRecommendation,
  nextUpdateAt: Date | null,
  status: FrameStatus,
  timeZone: string,
  /** Since when the answer is stale by the schedule (DisplayView.staleSince), or null. */
  staleSince: Date | null = null,
): string {
  // A field the service left out is sent as null, not left out: Home Assistant's templates render null as None,
  // which its MQTT sensors take as "unknown", where a missing key would be a template error.
  const weather: Record<string, unknown> = { ...rec.weather };
  for (const k of WEATHER_READINGS) weather[k] ??= null;
  const optional: Record<string, unknown> = {};
  for (const k of RECOMMENDATION_OPTIONAL) optional[k] = rec[k] ?? null;
  return JSON.stringify({
    ...rec,
    ...optional,
    ...garmentView(rec.outfit),
    weather,
    fetched_at: timeOrNull(rec.fetched_at, timeZone) ?? rec.fetched_at,
    next_update_at: timeOrNull(nextUpdateAt, timeZone),
    stale: isStale(status) || staleSince !== null,
    stale_since: timeOrNull(staleSince, timeZone),
  });
}

export interface DiagnosticsPayload {
  status: FrameStatus['kind'];
  status_detail: string | null;
  status_since: string | null;
  status_until: string | null;
  credits_spent_today: number | null;
  credits_spent_month: number | null;
  credits_left_today: number | null;
  credits_left_month: number | null;
  rate_limit_remaining: number | null;
  budget_blocked_until: string | null;
  budget_period_resets_at: string | null;
  budget_warnings: string[];
  /** `E_STATE_WRITE: cannot save …/last/hallway.json (EACCES)`, or null while the state is kept. */
  state_problem: string | null;
  /** `E_OUTPUT_WRITE: cannot write …/frames/hallway.png (ENOSPC)`, or null while the frame files are written. */
  output_problem: string | null;
  /** Since when the outfit on show is out of date (a scheduled update passed without a new one), or null. */
  stale_since: string | null;
  /** Whether the refresh button can do anything (false with no refresh reserve), and why not. */
  refresh_available: boolean;
  refresh_unavailable_reason: string | null;
  /** The last refused refresh, for a few minutes after it. */
  refresh_refused: string | null;
  refresh_refused_at: string | null;
  /** Only for a display with a panel on this machine's header: its last refresh and problem (`E_PANEL_…: …`). */
  panel_last_refresh_at?: string | null;
  panel_problem?: string | null;
}

/** The diagnostics carry the credits view flat (Home Assistant shows each as an attribute). */
export type DiagnosticsWithCredits = DiagnosticsPayload & CreditsView;

/** What the diagnostics say beyond the frame status and the budget. */
export interface DiagnosticsExtra {
  stateProblem?: StateProblem | null;
  outputProblem?: OutputProblem | null;
  staleSince?: Date | null;
  refreshUnavailable?: string | null;
  refreshRefused?: RefreshNotice | null;
  /** The attached panel's status; absent without one. */
  panel?: PanelStatus | null;
}

/** `E_STATE_WRITE: cannot save …` as one line, or null. */
export function stateProblemText(p: StateProblem | null | undefined): string | null {
  return p ? `${p.code}: ${p.message}` : null;
}

/** `<base>/<id>/diagnostics`: the display's frame status and the (shared) budget figures. */
export function diagnosticsPayload(
  status: FrameStatus,
  budget: BudgetStatusLike | null,
  timeZone: string,
  extra: DiagnosticsExtra = {},
): string {
  const b = budget ?? {};
  const out: DiagnosticsPayload = {
    status: status.kind,
    status_detail: 'message' in status ? status.message : null,
    status_since: 'since' in status ? timeOrNull(status.since, timeZone) : null,
    status_until: 'until' in status ? timeOrNull(status.until, timeZone) : null,
    credits_spent_today: numberOrNull(b.spentToday),
    credits_spent_month: numberOrNull(b.spentMonth),
    credits_left_today: numberOrNull(b.leftToday),
    credits_left_month: numberOrNull(b.leftMonth),
    rate_limit_remaining: numberOrNull(b.rateRemaining),
    budget_blocked_until: timeOrNull(b.blockedUntil, timeZone),
    budget_period_resets_at: timeOrNull(b.periodResetsAt, timeZone),
    budget_warnings: [...(b.warnings ?? [])].map(String),
    state_problem: stateProblemText(extra.stateProblem),
    output_problem: outputProblemText(extra.outputProblem),
    stale_since: timeOrNull(extra.staleSince ?? null, timeZone),
    refresh_available: !extra.refreshUnavailable,
    refresh_unavailable_reason: extra.refreshUnavailable ?? null,
    refresh_refused: extra.refreshRefused?.text ?? null,
    refresh_refused_at: timeOrNull(extra.refreshRefused?.at ?? null, timeZone),
    ...(extra.panel != null && {
      panel_last_refresh_at: timeOrNull(extra.panel.lastRefreshAt, timeZone),
      panel_problem: panelProblemText(extra.panel.problem),
    }),
  };
  const withCredits: DiagnosticsWithCredits = { ...out, ...creditsView(budget, timeZone) };
  return JSON.stringify(withCredits);
}
