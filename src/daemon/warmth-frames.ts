import type { WarmthBook } from '../household/warmth-book.js';
import type { Publisher } from '../publish/publisher.js';
import type { ShownView } from '../state/display-views.js';

/**
 * Tells the warmth book when a person has a new frame to judge (votes between two new frames count once,
 * src/household/warmth-book.ts): a display that publishes a new answer has shown each of its `people` a new outfit.
 * Not a publisher of the registry (it shows nothing): the daemon adds it behind the others when there are people.
 */
export function warmthFrames(warmth: WarmthBook): Publisher {
  /** The `fetched_at` of the answer last seen, by display: a redraw of the same answer is no new outfit. */
  const seen = new Map<string, string>();
  return {
    name: 'warmth',
    start: () => Promise.resolve(),
    publish(view: ShownView): Promise<void> {
      const at = view.rec?.fetched_at;
      if (at !== undefined && seen.get(view.display.id) !== at) {
        seen.set(view.display.id, at);
        for (const person of view.display.people ?? []) warmth.frameShown(person);
      }
      return Promise.resolve();
    },
    stop: () => warmth.flushed(),
  };
}
