import type { StoredRecommendation } from '../api/schemas.js';
import type { BudgetStatus } from '../budget/governor-types.js';
import type { RefreshNotice } from './display-state.js';
import type { FrameStatus } from '../domain/frame-status.js';
import type { StoreProblem } from '../store/store-error.js';
import { outputListed, type OutputProblem } from './output-problem.js';
import { renderListed, type RenderProblem } from './render-problem.js';
import { panelListed, type PanelStatus } from './panel-status.js';
import { tagListed, type TagProblem } from './tag-status.js';
import { storeListed } from './store-problem.js';
import { firstOf, shownProblem, type Problem, type ShownProblem } from './problems.js';
import { KNOWN_PROBLEM_SOURCES } from './display-views.js';
import { creditsView, type CreditsView } from './credits-view.js';
import { timeOrNull } from '../time/zoned-time.js';
import { numberOrNull } from '../shared/number-or-null.js';
import { displayState } from './state-json.js';
import type { FramePerson } from '../render/frame.js';

/**
 * The JSON payloads of `<base>/<id>/state` and `<base>/<id>/diagnostics`: pure functions. The state is the display's
 * one state JSON (state-json.ts), as in `<id>.json` and state.json. Times are ISO-8601 with the configured time zone's
 * offset ("2026-01-31T08:00:00.000+01:00"), which Home Assistant timestamp sensors require (a time without an offset
 * is rejected).
 */

export const STATUS_KINDS = [
  'ok',
  'stale',
  'key_rejected',
  'budget_exhausted',
  'credits_out',
  'unreachable',
  'service_error',
] as const;

/** `<base>/<id>/state`: the display's state (state-json.ts): the Recommendation, plus fetched_at, next_update_at, stale. */
export function statePayload(
  rec: StoredRecommendation,
  nextUpdateAt: Date | null,
  status: FrameStatus,
  timeZone: string,
  /** Since when the answer is stale by the schedule (DisplayView.staleSince), or null. */
  staleSince: Date | null = null,
  /** A household display's people (DisplayView.people) and why it buys nothing now (DisplayView.held). */
  household: { people?: readonly FramePerson[] | undefined; held?: 'quiet_hours' | 'away' | null | undefined } = {},
): string {
  const { people, held = null } = household;
  return JSON.stringify(
    displayState({ rec, status, nextUpdateAt, staleSince, held, ...(people !== undefined && { people }) }, timeZone),
  );
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
  /** `E_RENDER_TIMEOUT: the render process gave no answer …`, or null while frames are drawn. */
  render_problem: string | null;
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
  /** An OpenEPaperLink tag that is not fed (`E_OEPL_MAC_UNKNOWN: tag …: …`), or null. */
  tag_problem: string | null;
  /** Every problem, whichever part reports it (the fields above are the first of their sources): a line each. */
  problems: string[];
}

/** The diagnostics carry the credits view flat (Home Assistant shows each as an attribute). */
export type DiagnosticsWithCredits = DiagnosticsPayload & CreditsView;

/**
 * What the diagnostics say beyond the frame status and the budget. The problems are the view's list (`problems`);
 * without it, the list is made of the single problems given.
 */
export interface DiagnosticsExtra {
  /** Every problem of the display (DisplayView.problems). */
  problems?: readonly ShownProblem[];
  storeProblem?: StoreProblem | null;
  outputProblem?: OutputProblem | null;
  renderProblem?: RenderProblem | null;
  staleSince?: Date | null;
  refreshUnavailable?: string | null;
  refreshRefused?: RefreshNotice | null;
  /** The attached panel's status; absent without one. */
  panel?: PanelStatus | null;
  /** An OpenEPaperLink tag's problem. */
  tagProblem?: TagProblem | null;
}

const KNOWN = new Map(KNOWN_PROBLEM_SOURCES.map((s) => [s.source, s]));

/** The display's problem list, as the view makes it, of the single problems a caller gives. */
function listOf(extra: DiagnosticsExtra): readonly ShownProblem[] {
  if (extra.problems !== undefined) return extra.problems;
  const one = <T>(p: T | null | undefined, listed: (q: T) => Problem): Problem[] => (p == null ? [] : [listed(p)]);
  const panel = extra.panel;
  return [
    ...one(extra.storeProblem, storeListed),
    ...one(extra.outputProblem, outputListed),
    ...one(extra.renderProblem, renderListed),
    ...one(panel?.problem, (p) => panelListed(p, panel?.panel ?? '')),
    ...one(extra.tagProblem, tagListed),
  ].map((p) => shownProblem(p, KNOWN));
}

/** `<base>/<id>/diagnostics`: the display's frame status and the (shared) budget figures. */
export function diagnosticsPayload(
  status: FrameStatus,
  /** The governor's status(); a figure it leaves out is sent as null. */
  budget: Partial<BudgetStatus> | null,
  timeZone: string,
  extra: DiagnosticsExtra = {},
): string {
  const b: Partial<BudgetStatus> = budget ?? {};
  const problems = listOf(extra);
  const text = (source: string): string | null => firstOf(problems, source)?.text ?? null;
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
    state_problem: text('store'),
    output_problem: text('output'),
    render_problem: text('render'),
    stale_since: timeOrNull(extra.staleSince ?? null, timeZone),
    refresh_available: !extra.refreshUnavailable,
    refresh_unavailable_reason: extra.refreshUnavailable ?? null,
    refresh_refused: extra.refreshRefused?.text ?? null,
    refresh_refused_at: timeOrNull(extra.refreshRefused?.at ?? null, timeZone),
    tag_problem: text('tag'),
    problems: problems.map((p) => p.text),
    ...(extra.panel != null && {
      panel_last_refresh_at: timeOrNull(extra.panel.lastRefreshAt, timeZone),
      panel_problem: text('panel'),
    }),
  };
  const withCredits: DiagnosticsWithCredits = { ...out, ...creditsView(budget, timeZone) };
  return JSON.stringify(withCredits);
}
