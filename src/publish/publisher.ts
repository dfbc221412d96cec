import type { StoredRecommendation } from '../api/schemas.js';
import type { DisplayConfig } from '../config/schema.js';
import type { RefreshNotice } from '../daemon/cycle.js';
import type { Frame, FrameStatus } from '../render/frame.js';
import type { StateProblem } from '../store/state-error.js';
import type { OutputProblem } from './output-error.js';

/** What every publisher receives after a cycle of one display: the frame and the data behind it. */
export interface DisplayUpdate {
  display: DisplayConfig;
  /** The Recommendation the frame shows: the newest good one, or null before the first. */
  rec: StoredRecommendation | null;
  frame: Frame;
  status: FrameStatus;
  /** The outfit on show is out of date by its schedule (the frame shows its age); absent: current. */
  stale?: boolean;
  /** When the next scheduled update is due, or null when none is planned. */
  nextUpdateAt: Date | null;
  /** A state file of this display that could not be saved (the frame is current, a restart would lose it). */
  stateProblem?: StateProblem | null;
  /** This display's frame files could not be written (`output_dir` full, read-only, in the way), or null. */
  outputProblem?: OutputProblem | null;
  /** A refresh press that was refused, for a few minutes after it. */
  refreshRefused?: RefreshNotice | null;
}

/** A destination for frames: files, MQTT, HTTP. One feature a file behind this small interface. */
export interface Publisher {
  readonly name: string;
  start(): Promise<void>;
  publish(update: DisplayUpdate): Promise<void>;
  stop(): Promise<void>;
}
