import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { z } from '../shared/zod.js';
import { describeIssues } from '../shared/describe-issue.js';
import { ISO_UTC_MS, RecommendationSchema, type StoredRecommendation } from '../api/schemas.js';
import { removeStaleTempFiles, writeFileAtomic } from './atomic-write.js';
import { storeWriteError } from './store-error.js';

/**
 * The most a last-good file is read: what the client keeps of an answer is bounded far below 1 MiB as written
 * (src/api/answer-limits.ts), and the file adds `fetched_at`. A larger file was not written by us, and reading it
 * whole would take the memory a Pi's unit does not have.
 */
const MAX_LAST_GOOD_BYTES = 1024 * 1024 + 4096;

const StoredRecommendationSchema = RecommendationSchema.extend({
  fetched_at: z.string().regex(ISO_UTC_MS, 'must be an ISO-8601 UTC timestamp'),
}).loose();

export interface LastGoodStoreOptions {
  /**
   * The folder under `state_dir` the files are kept in; default `last` (a display's, `last/<id>.json`). A household
   * display keeps its people's in `people/<display id>` (`<person id>.json`).
   */
  folder?: string;
}

/**
 * The last good Recommendation of each display, in `<state_dir>/last/<id>.json`: what the display keeps
 * showing when the service fails, and what is published at once after a restart. Written only when a new
 * Recommendation arrives (SD cards wear out), atomically.
 */
export class LastGoodStore {
  readonly #dir: string;
  /** Temp files left by a write that a crash cut short, removed once, at the first load. */
  #cleaned: Promise<void> | null = null;

  constructor(stateDir: string, opts: LastGoodStoreOptions = {}) {
    this.#dir = path.join(stateDir, opts.folder ?? 'last');
  }

  async load(id: string): Promise<{ rec: StoredRecommendation | null; problem: string | null }> {
    this.#cleaned ??= removeStaleTempFiles(this.#dir);
    await this.#cleaned;
    const file = this.#file(id);
    let text: string;
    try {
      const fh = await open(file, 'r');
      try {
        const { size } = await fh.stat();
        if (size > MAX_LAST_GOOD_BYTES)
          return {
            rec: null,
            problem: `${file} is ${size} bytes, more than a last good file can be (${MAX_LAST_GOOD_BYTES}); ignored`,
          };
        text = await fh.readFile('utf8');
      } finally {
        await fh.close();
      }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return { rec: null, problem: code === 'ENOENT' ? null : `cannot read ${file} (${code ?? 'error'})` };
    }
    try {
      const parsed = StoredRecommendationSchema.safeParse(JSON.parse(text));
      if (parsed.success) return { rec: parsed.data, problem: null };
      return { rec: null, problem: `${file}: ${describeIssues(parsed.error)[0] ?? 'invalid'}; ignored` };
    } catch {
      return { rec: null, problem: `${file}: not JSON (truncated or corrupt); ignored` };
    }
  }

  /** Throws a StoreError (E_STATE_WRITE) naming the file when it cannot be written. */
  async save(id: string, rec: StoredRecommendation): Promise<void> {
    const file = this.#file(id);
    try {
      await mkdir(this.#dir, { recursive: true });
      await writeFileAtomic(file, `${JSON.stringify(rec)}\n`);
    } catch (err) {
      throw storeWriteError(file, err);
    }
  }

  /** The display's last good file: what a problem with it names. */
  fileOf(id: string): string {
    return this.#file(id);
  }

  #file(id: string): string {
    return path.join(this.#dir, `${id}.json`);
  }
}
