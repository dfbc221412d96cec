import type { BudgetStatus } from '../../src/budget/governor-types.js';
import type { DisplayConfig } from '../../src/config/schema.js';
import type { Frame } from '../../src/render/frame.js';
import { DisplayBook } from '../../src/state/display-book.js';
import type { DisplayState } from '../../src/state/display-state.js';
import { DisplayViews, type DisplayViewSource, type ShownView } from '../../src/state/display-views.js';
import type { PanelStatus } from '../../src/state/panel-status.js';
import type { TagProblem } from '../../src/state/tag-status.js';
import type { ProblemBook, ProblemSource } from '../../src/state/problems.js';
import type { Publisher } from '../../src/publish/publisher.js';
import type { Clock } from '../../src/time/clock.js';
import { systemClock } from '../../src/time/clock.js';

/**
 * A display book and its views, as the daemon builds them, for tests that drive a publisher (or a cycle) without a daemon:
 * a test records a display's state as a cycle would and hands the publisher the view it gets back.
 */

export interface TestViewsOptions {
  displays: readonly DisplayConfig[];
  /** Dates the records (frameSince, updatedAt) and ages the refused-refresh notice; default the system clock. */
  clock?: Pick<Clock, 'now'>;
  /** The schedule's next run; default the one each recorded state announces. */
  nextUpdateAt?: (displayId: string) => Date | null;
  /** The governor's status; default none. */
  budget?: () => Partial<BudgetStatus> | null;
  panelStatus?: (displayId: string) => PanelStatus | null;
  /** The OpenEPaperLink tags' problem (a TagStatusBook's get); default none. */
  tagProblem?: (displayId: string) => TagProblem | null;
  /** Where publishers report their problems (a ProblemBook, as the daemon's): the views read and hear it. */
  problems?: ProblemBook;
  /** How those problems read (a publisher's description's `problems`). */
  sources?: readonly ProblemSource[];
}

export interface TestViews {
  displayBook: DisplayBook;
  views: DisplayViews;
  /** Records `state` in the display book (as a cycle does) and returns the view a publisher is handed. */
  show(state: DisplayState): ShownView;
}

export function testViews(o: TestViewsOptions): TestViews {
  const clock = o.clock ?? systemClock;
  const displayBook = new DisplayBook({ clock });
  const budget = o.budget;
  const views = new DisplayViews({
    displayBook,
    displays: o.displays,
    clock,
    ...(o.nextUpdateAt !== undefined && { nextUpdateAt: o.nextUpdateAt }),
    ...(budget !== undefined && { budget: () => fullBudget(budget()) }),
    ...(o.panelStatus !== undefined && { panelStatus: o.panelStatus }),
    ...(o.tagProblem !== undefined && { tagProblem: o.tagProblem }),
    ...(o.problems !== undefined && {
      problems: (id: string) => o.problems!.list(id),
      onChange: (l: (id: string) => void) => o.problems!.onChange(l),
    }),
    ...(o.sources !== undefined && { sources: o.sources }),
  });
  return {
    displayBook,
    views,
    show(state) {
      displayBook.record(state);
      const v = views.view(state.display.id);
      if (v?.kind !== 'shown') throw new Error(`testViews: no view of "${state.display.id}" after recording it`);
      return v;
    },
  };
}

/** A display's state with a frame on the wall. */
export type ShownState = DisplayState & { readonly frame: Frame };

/** A display's state with a frame, as a cycle records it; the answer's own time counts as its last success. */
export function shownState(
  display: DisplayConfig,
  frame: Frame,
  over: Partial<Omit<DisplayState, 'frame'>> = {},
): ShownState {
  const rec = over.rec ?? null;
  return {
    display,
    rec,
    status: { kind: 'ok' },
    frame,
    stale: false,
    staleSince: null,
    lastError: null,
    lastSuccessAt: rec?.fetched_at ?? null,
    storeProblem: null,
    outputProblem: null,
    renderProblem: null,
    refreshRefused: null,
    nextUpdateAt: null,
    ...over,
  };
}

/**
 * A test's partial governor status, as the governor's: the payloads read every figure as possibly missing (a figure
 * left out shows as null), which is what the tests of a partial status check.
 */
function fullBudget(b: Partial<BudgetStatus> | null): BudgetStatus | null {
  return b as BudgetStatus | null;
}

/** The view of a display that shows a frame (the daemon's views after a cycle); throws when it shows none. */
export function shownView(views: Pick<DisplayViewSource, 'view'>, displayId: string): ShownView {
  const v = views.view(displayId);
  if (v?.kind !== 'shown') throw new Error(`display "${displayId}" shows no frame`);
  return v;
}

/** A publisher that keeps every view it is handed, for tests that drive a cycle. */
export function keeper(): Publisher & { updates: ShownView[] } {
  const updates: ShownView[] = [];
  return {
    name: 'keeper',
    updates,
    start: () => Promise.resolve(),
    publish: (u) => Promise.resolve(void updates.push(u)),
    stop: () => Promise.resolve(),
  };
}
