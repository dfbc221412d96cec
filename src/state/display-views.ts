import type { StoredRecommendation } from '../api/schemas.js';
import type { BudgetStatus } from '../budget/governor-types.js';
import type { DisplayConfig } from '../config/schema.js';
import type { FrameStatus } from '../domain/frame-status.js';
import type { Frame, FramePerson } from '../render/frame.js';
import { shownStoreProblem, type StoreProblem } from '../store/store-error.js';
import type { Clock } from '../time/clock.js';
import type { DisplayBook } from './display-book.js';
import { recentNotice, type DisplayState, type LastError, type RefreshNotice } from './display-state.js';
import { OUTPUT_PROBLEMS, outputListed, type OutputProblem } from './output-problem.js';
import { RENDER_PROBLEMS, renderListed, type RenderProblem } from './render-problem.js';
import { PANEL_PROBLEMS, panelListed, type PanelStatus } from './panel-status.js';
import { TAG_PROBLEMS, tagListed, tagOf, type TagProblem } from './tag-status.js';
import { firstOf, shownProblem, type Problem, type ProblemSource, type ShownProblem } from './problems.js';
import { STORE_PROBLEMS, storeListed } from './store-problem.js';

/**
 * The one read-only view of a display that every publisher shows: state.json, the status page and /healthz, MQTT
 * state and diagnostics. Each field has one source and one rule, here: what the cycle recorded in the display book, the
 * schedule's next run, the budget's shared state problem, a refused refresh only while it is recent, and every
 * problem in one list (problems.ts).
 */

interface ViewBase {
  readonly display: DisplayConfig;
  /** The last good Recommendation (kept through failures), or null before the first. */
  readonly rec: StoredRecommendation | null;
  readonly lastSuccessAt: string | null;
  readonly lastError: LastError | null;
  /** This display's state problem, else the one every display shares (the credit ledger): store-error.ts, shownStoreProblem. */
  readonly storeProblem: StoreProblem | null;
  /** This display's frame files cannot be written (E_OUTPUT_WRITE), or null. */
  readonly outputProblem: OutputProblem | null;
  /** This display's last frame could not be drawn (E_RENDER_…): the frame on show is an older one, or null. */
  readonly renderProblem: RenderProblem | null;
  /** A refused refresh, for REFRESH_NOTICE_MS after it. */
  readonly refreshRefused: RefreshNotice | null;
  /** The schedule's next run (the cycle's announced one where no schedule is read), or null when none is planned. */
  readonly nextUpdateAt: Date | null;
  /**
   * Whether the frame on show was drawn with the outfit out of date (DisplayState.stale): a publisher that draws it
   * again (TRMNL) draws it so.
   */
  readonly stale: boolean;
  /**
   * Since when the answer on show is stale: a slot after its last success passed (with a grace) without a new one;
   * null while it is current. Worked out by the cycle when it drew the frame (staleness()), whatever the status says.
   */
  readonly staleSince: Date | null;
  /**
   * Why the display buys nothing now (household-gate.ts): its quiet hours, or everyone it dresses is away; null (or
   * absent) while it buys on its schedule.
   */
  readonly held?: 'quiet_hours' | 'away' | null;
  /** The attached panel's last refresh and problem (src/epd/panel-publisher.ts), or null without one. */
  readonly panel: PanelStatus | null;
  /** A problem of one of the display's OpenEPaperLink tags (src/oepl/), or null while they are fed or there are none. */
  readonly tagProblem: TagProblem | null;
  /**
   * Every problem of the display, with its words: the state's, the frame files', the drawing's, the attached panel's,
   * the tags', then each publisher's. The fields above are its first of each of those sources.
   */
  readonly problems: readonly ShownProblem[];
  /** A household display's people as its frame shows them (DisplayState.people); absent for a display of one outfit. */
  readonly people?: readonly FramePerson[];
  /** Whom a one-person frame of the household shows now (DisplayState.onePerson): devices that take turns show them. */
  readonly onePerson?: string;
}

/** Nothing on the wall yet. */
export interface BlankView extends ViewBase {
  readonly kind: 'none';
}

/** A frame on the wall, and the status it shows. */
export interface ShownView extends ViewBase {
  readonly kind: 'shown';
  readonly status: FrameStatus;
  readonly frame: Frame;
  /** When a frame with these bytes first appeared. */
  readonly frameSince: Date;
  /** When the display's state was last recorded. */
  readonly updatedAt: Date;
}

export type DisplayView = BlankView | ShownView;

/**
 * What a frame says of its own age and health (stale or current, the status it shows), as one key: a publisher that
 * draws the view again for another panel (TRMNL, OpenEPaperLink) draws anew when it changes, and a device that
 * shows a frame of another look needs a full refresh, or the old marks ghost on.
 */
export function frameLook(view: Pick<ShownView, 'stale' | 'status'>): string {
  return `${view.stale ? 'stale' : 'current'}/${view.status.kind}`;
}

/** What publishers are given: read only. */
export interface DisplayViewSource {
  /** The view of a display, or null for an id that is not a display. */
  view(displayId: string): DisplayView | null;
  /** The governor's status (credits spent and left), shared by every display; null without a budget. */
  budget(): BudgetStatus | null;
  /** Hears of a display whose problems changed outside its cycle (a panel, a tag, a webhook); absent: never. */
  onChange?(listener: (displayId: string) => void): void;
}

/** The sources every view knows the words of: the cycle's own, and those of the built-in publishers' books. */
export const KNOWN_PROBLEM_SOURCES: readonly ProblemSource[] = [
  STORE_PROBLEMS,
  OUTPUT_PROBLEMS,
  RENDER_PROBLEMS,
  PANEL_PROBLEMS,
  TAG_PROBLEMS,
];

export interface DisplayViewsOptions {
  displayBook: Pick<DisplayBook, 'get'>;
  /** The configured displays (a display the book has no entry for yet shows as blank). */
  displays: readonly DisplayConfig[];
  clock: Pick<Clock, 'now'>;
  /** The schedule's next run; default the one each cycle announced when it recorded. */
  nextUpdateAt?: (displayId: string) => Date | null;
  /** The governor's status(); default none. */
  budget?: () => BudgetStatus | null;
  /** Why the display buys nothing now (the household's quiet hours or absence), or null; default: never held. */
  held?: (displayId: string) => 'quiet_hours' | 'away' | null;
  /** The attached panel's status (the daemon's PanelStatusBook); default: no panel. */
  panelStatus?: (displayId: string) => PanelStatus | null;
  /** An OpenEPaperLink tags' problem kept apart from `problems` (a TagStatusBook of its own); default: none. */
  tagProblem?: (displayId: string) => TagProblem | null;
  /** What the publishers report (the daemon's ProblemBook's list); default: none. */
  problems?: (displayId: string) => readonly Problem[];
  /** How each publisher's problems read, beyond KNOWN_PROBLEM_SOURCES (the publishers' descriptions). */
  sources?: readonly ProblemSource[];
  /** Where the changes of `problems` and of the panels' status are heard (the books' onChange); default: none. */
  onChange?: (listener: (displayId: string) => void) => void;
}

export class DisplayViews implements DisplayViewSource {
  readonly #o: DisplayViewsOptions;
  readonly #sources: ReadonlyMap<string, ProblemSource>;

  constructor(opts: DisplayViewsOptions) {
    this.#o = opts;
    this.#sources = new Map([...KNOWN_PROBLEM_SOURCES, ...(opts.sources ?? [])].map((s) => [s.source, s]));
  }

  onChange(listener: (displayId: string) => void): void {
    this.#o.onChange?.(listener);
  }

  budget(): BudgetStatus | null {
    return this.#o.budget?.() ?? null;
  }

  view(displayId: string): DisplayView | null {
    const record = this.#o.displayBook.get(displayId);
    const display = record?.entry.display ?? this.#o.displays.find((d) => d.id === displayId);
    if (display === undefined) return null;
    const entry: Partial<DisplayState> = record?.entry ?? {};
    const storeProblem = shownStoreProblem(entry.storeProblem ?? null, this.#sharedProblem());
    const panel = this.#o.panelStatus?.(displayId) ?? null;
    const tag = this.#o.tagProblem?.(displayId) ?? null;
    const listed: Problem[] = [
      ...(storeProblem === null ? [] : [storeListed(storeProblem)]),
      ...(entry.outputProblem == null ? [] : [outputListed(entry.outputProblem)]),
      ...(entry.renderProblem == null ? [] : [renderListed(entry.renderProblem)]),
      ...(panel?.problem == null ? [] : [panelListed(panel.problem, panel.panel)]),
      ...(tag === null ? [] : [tagListed(tag)]),
      ...(this.#o.problems?.(displayId) ?? []),
    ];
    const problems = listed.map((p) => shownProblem(p, this.#sources));
    const firstTag = firstOf(problems, 'tag');
    const base: ViewBase = {
      display,
      rec: entry.rec ?? null,
      lastSuccessAt: entry.lastSuccessAt ?? null,
      lastError: entry.lastError ?? null,
      storeProblem,
      outputProblem: entry.outputProblem ?? null,
      renderProblem: entry.renderProblem ?? null,
      refreshRefused: recentNotice(entry.refreshRefused ?? null, this.#o.clock.now()),
      nextUpdateAt: this.#o.nextUpdateAt?.(displayId) ?? entry.nextUpdateAt ?? null,
      stale: entry.stale ?? false,
      staleSince: entry.staleSince ?? null,
      held: this.#o.held?.(displayId) ?? null,
      panel,
      tagProblem: firstTag === null ? null : tagOf(firstTag),
      problems,
      ...(entry.people !== undefined && { people: entry.people }),
      ...(entry.onePerson !== undefined && { onePerson: entry.onePerson }),
    };
    if (record === null || record.entry.frame === null || record.frameSince === null) return { ...base, kind: 'none' };
    return {
      ...base,
      kind: 'shown',
      status: record.entry.status,
      frame: record.entry.frame,
      frameSince: record.frameSince,
      updatedAt: record.updatedAt,
    };
  }

  /** The ledger's problem; a budget that cannot report is shown (and logged) where its figures are. */
  #sharedProblem(): StoreProblem | null {
    try {
      return this.budget()?.storeProblem ?? null;
    } catch {
      return null;
    }
  }
}
