import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { garmentsOf } from '../render/garments.js';
import type { DisplayUpdate, Publisher } from './publisher.js';
import { removeStaleTempFiles, writeFileAtomic } from '../store/atomic-write.js';

/**
 * `<output_dir>/<id>.png` (the frame, panel-exact) and `<output_dir>/<id>.json` (the Recommendation it shows,
 * plus `fetched_at`), each written atomically. The PNG is rewritten only when its content changes.
 */
export class FilePublisher implements Publisher {
  readonly name = 'files';
  readonly #dir: string;
  readonly #lastHash = new Map<string, string>();
  readonly #lastJson = new Map<string, string>();

  constructor(outputDir: string) {
    this.#dir = outputDir;
  }

  async start(): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
    await removeStaleTempFiles(this.#dir);
  }

  async publish(update: DisplayUpdate): Promise<void> {
    const id = update.display.id;
    if (this.#lastHash.get(id) !== update.frame.hash) {
      await writeFileAtomic(path.join(this.#dir, `${id}.png`), update.frame.png);
      this.#lastHash.set(id, update.frame.hash);
    }
    if (update.rec !== null) {
      const json = `${JSON.stringify({ ...update.rec, garments: garmentsOf(update.rec.outfit) }, null, 2)}\n`;
      if (this.#lastJson.get(id) !== json) {
        await writeFileAtomic(path.join(this.#dir, `${id}.json`), json);
        this.#lastJson.set(id, json);
      }
    }
  }

  async stop(): Promise<void> {
    // Every write is complete when publish() resolves: nothing to flush.
  }
}
