import type { FrameStatus } from '../domain/frame-status.js';
import { firstOf, type ShownProblem } from '../state/problems.js';

/**
 * /healthz: healthy while every display has an outfit on show that is current by its schedule (whatever else failed),
 * and no problem stands (the display's one list: a file, the state, the drawing, a panel, a tag, a publisher). Pure:
 * the app passes what the display's view says.
 */

/** A problem as /healthz reads it: its line and its words (ShownProblem), each taken through the redactor. */
export type HealthProblem = Pick<ShownProblem, 'source' | 'code' | 'text' | 'health'>;

export interface DisplayHealthInput {
  id: string;
  status: FrameStatus | null;
  hasFrame: boolean;
  /**
   * Whether the frame shows an outfit (an answer, kept or new): the waiting screen of a first start, or of a start
   * whose last good answer could not be read back, is no outfit on show, so unhealthy until the first one comes.
   */
  hasOutfit: boolean;
  /** The display's next update: the reason names it while no outfit is on show. */
  nextUpdateAt?: Date | null;
  lastSuccessAt: string | null;
  /** Since when the answer on show is stale by its schedule (DisplayView.staleSince): healthy exactly while it is null. */
  staleSince: Date | null;
  /**
   * Every problem of the display (DisplayView.problems): each one unhealthy, whatever the data. A state file that
   * cannot be saved (a restart would lose it), frame files that are not the frame shown, a frame that cannot be
   * drawn, a panel or a tag that does not show it, a publisher that cannot deliver it.
   */
  problems: readonly HealthProblem[];
  /** Whether the display has a panel on this machine's header: `panel_problem` is then always there. */
  attached: boolean;
}

export interface DisplayHealth {
  id: string;
  ok: boolean;
  reason: string;
  status: FrameStatus['kind'] | 'none';
  last_success_at: string | null;
  state_problem: string | null;
  output_problem: string | null;
  render_problem: string | null;
  /** Only for a display with an attached panel: its problem, or null while it refreshes. */
  panel_problem?: string | null;
  /** Only while one of the display's OpenEPaperLink tags is not fed: its problem. */
  tag_problem?: string | null;
  /** Every problem, whichever part reports it: its source, its code and its line. */
  problems: { source: string; code: string; problem: string }[];
}

export function statusWords(s: FrameStatus): string {
  switch (s.kind) {
    case 'ok':
      return 'last cycle succeeded';
    case 'stale':
      return 'data is stale';
    case 'key_rejected':
      return `API key rejected (${s.message})`;
    case 'budget_exhausted':
      return `credit budget used up until ${s.until.toISOString()}`;
    case 'credits_out':
      return `the service account is out of credits since ${s.since.toISOString()}; next try ${s.until.toISOString()}`;
    case 'unreachable':
      return `service unreachable since ${s.since.toISOString()} (${s.message})`;
    case 'service_error':
      if (s.problem === 'busy') return `the service is busy since ${s.since.toISOString()} (${s.message})`;
      return `the service failed (${s.problem}) since ${s.since.toISOString()} (${s.message})`;
  }
}

export function displayHealth(d: DisplayHealthInput): DisplayHealth {
  const text = (source: string): string | null => firstOf(d.problems, source)?.text ?? null;
  const tag = text('tag');
  const base = {
    id: d.id,
    status: d.status?.kind ?? ('none' as const),
    last_success_at: d.lastSuccessAt,
    state_problem: text('store'),
    output_problem: text('output'),
    render_problem: text('render'),
    ...(d.attached && { panel_problem: text('panel') }),
    ...(tag !== null && { tag_problem: tag }),
    problems: d.problems.map((p) => ({ source: p.source, code: p.code, problem: p.text })),
  };
  const problems = d.problems.map((p) => p.health);
  const shown = outfitHealth(d);
  if (problems.length === 0) return { ...base, ...shown };
  return { ...base, ok: false, reason: [...problems, ...(shown.ok ? [] : [shown.reason])].join('; ') };
}

/** Whether an outfit is on show and current by its schedule, and why not. */
function outfitHealth(d: DisplayHealthInput): { ok: boolean; reason: string } {
  if (!d.hasFrame || d.status === null) return { ok: false, reason: 'no frame yet' };
  if (d.lastSuccessAt !== null) {
    // The schedule's promise: the outfit on show is current until a slot after it passed without a new one.
    const words = d.status.kind === 'ok' ? 'last cycle succeeded' : statusWords(d.status);
    if (d.staleSince === null)
      return { ok: true, reason: d.status.kind === 'ok' ? words : `${words}; the outfit on show is still current` };
    return {
      ok: false,
      reason: `${words}; the outfit on show is out of date since ${d.staleSince.toISOString()} (a scheduled update passed without a new one)`,
    };
  }
  if (d.status.kind !== 'ok') return { ok: false, reason: `${statusWords(d.status)}; no good data yet` };
  // Nothing failed: an outfit dated ahead (its age unknown) is fine; the waiting screen shows nothing to wear.
  if (d.hasOutfit) return { ok: true, reason: 'last cycle succeeded' };
  const next = d.nextUpdateAt ?? null;
  return {
    ok: false,
    reason: `no outfit on show yet: ${next === null ? 'no update is planned' : `the next update is due ${next.toISOString()}`}`,
  };
}

export interface Health {
  ok: boolean;
  reason: string;
  displays: DisplayHealth[];
}

export function overallHealth(displays: DisplayHealth[]): Health {
  const bad = displays.filter((d) => !d.ok);
  const reason = bad.length === 0 ? 'ok' : bad.map((d) => `${d.id}: ${d.reason}`).join('; ');
  return { ok: bad.length === 0, reason, displays };
}
