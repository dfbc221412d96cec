import type { ShownView } from '../state/display-views.js';

/**
 * A destination for frames. Which there are is the registry's list (src/daemon/publisher-registry.ts): each
 * publisher's folder exports its description (plugin.ts), and the publisher behind it implements this interface.
 *
 * The publish contract goes one way: a display's cycle records its state in the daemon's display book, then tells every
 * publisher that the display changed by handing it the display's one view (DisplayViews.view(): the frame, the
 * answer, the status, staleness, the next update, every problem). A publisher never receives anything else about a
 * display and never writes state back but its own problems (the problem book); what it shows of other displays
 * (MQTT's diagnostics, the status page) it reads from the same views.
 */
export interface Publisher {
  readonly name: string;
  start(): Promise<void>;
  /** The display of `view` changed (a new frame, or the state behind the same frame): show it. */
  publish(view: ShownView): Promise<void>;
  stop(): Promise<void>;
}
