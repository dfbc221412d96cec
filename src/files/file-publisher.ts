import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ShownView } from '../state/display-views.js';
import { answerState } from '../state/state-json.js';
import type { Publisher } from '../publish/publisher.js';
import { outputWriteError } from './output-error.js';
import { removeStaleTempFiles, removeTempFilesOf, writeFileAtomic } from '../store/atomic-write.js';

export interface FilePublisherOptions {
  /** `output_dir`: where `<id>.png` and `<id>.json` go (made at start, and again at a publish that finds it gone). */
  outputDir: string;
  /** The configured time zone: `fetched_at` in `<id>.json` carries its offset, as in state.json and the MQTT state. */
  timezone: string;
  /** Writes one file whole (default writeFileAtomic); tests pass one that fails as a full disk would. */
  write?: (file: string, data: Buffer | string) => Promise<void>;
}

/**
 * `<output_dir>/<id>.png` (the frame, panel-exact) and `<output_dir>/<id>.json` (the Recommendation it shows, plus
 * `fetched_at` and the garments: the answer's part of the display's state, state-json.ts, as in state.json and the
 * MQTT state), each written atomically. The PNG is rewritten only when its content changes. A write that
 * fails (ENOSPC, EROFS, EACCES, a folder in the way) rejects with an OutputError (E_OUTPUT_WRITE) naming the file:
 * the cycle shows it on every other publisher, and the next publish tries again.
 */
export class FilePublisher implements Publisher {
  readonly name = 'files';
  readonly #dir: string;
  readonly #timezone: string;
  readonly #write: (file: string, data: Buffer | string) => Promise<void>;
  readonly #lastHash = new Map<string, string>();
  readonly #lastJson = new Map<string, string>();
  /** Files whose last write failed: their temp files are removed after the next write that succeeds. */
  readonly #failed = new Set<string>();

  constructor(opts: FilePublisherOptions) {
    this.#dir = opts.outputDir;
    this.#timezone = opts.timezone;
    this.#write = opts.write ?? ((file, data) => writeFileAtomic(file, data));
  }

  /**
   * Makes output_dir. A folder that cannot be made (no permission, a read-only disk) does not stop the daemon: the
   * other publishers still show every frame, and each publish reports it (E_OUTPUT_WRITE) and tries again.
   */
  async start(): Promise<void> {
    if (
      await this.#makeDir().then(
        () => true,
        () => false,
      )
    )
      await removeStaleTempFiles(this.#dir);
  }

  /**
   * Makes output_dir when it is not there, at every publish: one removed while the daemon runs (by hand, by a
   * tmpfiles clean-up) is made again by the next write, not a cycle later. A folder made anew holds none of the
   * files written before: they are all written again, changed or not.
   */
  async #makeDir(): Promise<void> {
    let made: string | undefined;
    try {
      made = await mkdir(this.#dir, { recursive: true });
    } catch (err) {
      throw outputWriteError(this.#dir, err);
    }
    if (made !== undefined) {
      this.#lastHash.clear();
      this.#lastJson.clear();
    }
  }

  async publish(view: ShownView): Promise<void> {
    const id = view.display.id;
    await this.#makeDir();
    if (this.#lastHash.get(id) !== view.frame.hash) {
      await this.#writeFile(path.join(this.#dir, `${id}.png`), view.frame.png);
      this.#lastHash.set(id, view.frame.hash);
    }
    if (view.rec !== null) {
      const json = `${JSON.stringify(answerState(view.rec, this.#timezone), null, 2)}\n`;
      if (this.#lastJson.get(id) !== json) {
        await this.#writeFile(path.join(this.#dir, `${id}.json`), json);
        this.#lastJson.set(id, json);
      }
    }
  }

  async #writeFile(file: string, data: Buffer | string): Promise<void> {
    try {
      await this.#write(file, data);
    } catch (err) {
      this.#failed.add(file);
      throw outputWriteError(file, err);
    }
    // A write that failed may have left its temp file (its rename and removal refused by a disk turned read-only).
    if (this.#failed.delete(file)) await removeTempFilesOf(file);
  }

  async stop(): Promise<void> {
    // Every write is complete when publish() resolves: nothing to flush.
  }
}
