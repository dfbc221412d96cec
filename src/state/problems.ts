/**
 * Every problem of a display, in one list: what the cycle met (its state file, its frame files, a frame it could not
 * draw) and what each publisher met (the attached panel, a tag, a webhook). Each has the same shape, and each part
 * says once how its problems read (a ProblemSource): the status page, /healthz, state.json and the Home Assistant
 * diagnostics show the list without knowing the part. A problem stands from its first failure until the part works
 * again.
 */

export interface Problem {
  /** Which part reports it: 'store', 'output', 'render', 'panel', 'tag', or a publisher's own name ('webhook'). */
  readonly source: string;
  /** A code of src/shared/codes.ts (E_…). */
  readonly code: string;
  readonly message: string;
  /** ISO time of the first failure since the part last worked. */
  readonly since: string;
  /** What it is about beyond the display (the file, the tag's MAC), each shown as is; absent: nothing more. */
  readonly detail?: Readonly<Record<string, string>>;
}

/** How the problems of one source read where an owner looks; declared once, by the part that reports them. */
export interface ProblemSource {
  readonly source: string;
  /** The status page's heading of its row: 'Frame files'. */
  readonly label: string;
  /** What it means for the display, in /healthz's reason, before the problem: 'frame files cannot be written'. */
  readonly health: string | ((p: Problem) => string);
  /** Said after the problem on the status page: 'the last good frame is on show'; absent: nothing. */
  readonly note?: string;
  /** The problem as one line; default `CODE: message`. */
  readonly line?: (p: Problem) => string;
}

/** A problem as the display's view carries it: with its words, so that a reader needs nothing else. */
export interface ShownProblem extends Problem {
  /** `E_OUTPUT_WRITE: cannot write …/hallway.png (ENOSPC)`. */
  readonly text: string;
  readonly label: string;
  /** /healthz's words: `frame files cannot be written: E_OUTPUT_WRITE: …`. */
  readonly health: string;
  readonly note: string | null;
}

/** `CODE: message`, every problem's line unless its source says otherwise. */
export function problemLine(p: Pick<Problem, 'code' | 'message'>): string {
  return `${p.code}: ${p.message}`;
}

/** A problem of a source nobody described (a publisher's test without its description): its name as its words. */
function fallbackSource(source: string): ProblemSource {
  return { source, label: source, health: `${source} fails` };
}

/** The problem with its source's words. */
export function shownProblem(p: Problem, sources: ReadonlyMap<string, ProblemSource>): ShownProblem {
  const s = sources.get(p.source) ?? fallbackSource(p.source);
  const text = (s.line ?? problemLine)(p);
  const words = typeof s.health === 'string' ? s.health : s.health(p);
  return { ...p, text, label: s.label, health: `${words}: ${text}`, note: s.note ?? null };
}

/** The first problem of `source` in the list, or null: what each fixed field (`render_problem`, …) shows. */
export function firstOf<P extends Pick<Problem, 'source'>>(problems: readonly P[], source: string): P | null {
  return problems.find((p) => p.source === source) ?? null;
}

/** The list as JSON (state.json): each problem's own fields and its detail, flat; every text through the redactor. */
export function problemJson(
  p: Problem,
  time: (iso: string) => string | null,
  scrub: (t: string) => string,
): Record<string, unknown> {
  const detail = Object.fromEntries(Object.entries(p.detail ?? {}).map(([k, v]) => [k, scrub(v)]));
  // The problem's own fields last: a detail cannot stand in for them.
  return { ...detail, source: p.source, code: p.code, message: scrub(p.message), since: time(p.since) };
}

/** A problem a part sets in the book, dated by the part's clock: the book keeps the first `since` of a code. */
export type ProblemInput = Omit<Problem, 'source'>;

/**
 * The problems publishers report, per display: each publisher sets or clears its own (by source and a key of its
 * choosing: a tag's MAC, a URL), and the views read them. Listeners hear of each change, and only of a change.
 */
export class ProblemBook {
  /** Per display, per `source key`. */
  readonly #problems = new Map<string, Map<string, Problem>>();
  readonly #listeners: Array<(displayId: string) => void> = [];

  /** The display's problems, in the order they first appeared. */
  list(displayId: string): readonly Problem[] {
    return [...(this.#problems.get(displayId)?.values() ?? [])];
  }

  /** Sets (a problem) or clears (null) one problem. */
  set(displayId: string, source: string, key: string, problem: ProblemInput | null): void {
    const byKey = this.#problems.get(displayId) ?? new Map<string, Problem>();
    const id = `${source} ${key}`;
    const had = byKey.get(id);
    if (problem === null) {
      if (had === undefined) return;
      byKey.delete(id);
    } else {
      if (had !== undefined && had.code === problem.code && had.message === problem.message) return;
      const since = had?.code === problem.code ? had.since : problem.since;
      byKey.set(id, { ...problem, source, since });
    }
    if (byKey.size === 0) this.#problems.delete(displayId);
    else this.#problems.set(displayId, byKey);
    for (const l of this.#listeners) l(displayId);
  }

  /** Called after each change (MQTT sends the display's diagnostics again). */
  onChange(listener: (displayId: string) => void): void {
    this.#listeners.push(listener);
  }
}
