import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ISO_UTC_MS, RecommendationSchema, type StoredRecommendation } from '../api/schemas.js';
import { removeStaleTempFiles, writeFileAtomic } from './atomic-write.js';

export const StoredRecommendationSchema = RecommendationSchema.extend({
  fetched_at: z.string().regex(ISO_UTC_MS, 'must be an ISO-8601 UTC timestamp'),
}).loose();

/**
 * The last good Recommendation of each display, in `<state_dir>/last/<id>.json`: what the display keeps
 * showing when the service fails, and what is published at once after a restart. Written only when a new
 * Recommendation arrives (SD cards wear out), atomically.
 */
export class LastGoodStore {
  readonly #dir: string;
  /** Temp files left by a write that a crash cut short, removed once, at the first load. */
  #cleaned: Promise<void> | null = null;

  constructor(stateDir: string) {
    this.#dir = path.join(stateDir, 'last');
  }

  async load(id: string): Promise<{ rec: StoredRecommendation | null; problem: string | null }> {
    this.#cleaned ??= removeStaleTempFiles(this.#dir);
    await this.#cleaned;
    const file = this.#file(id);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return { rec: null, problem: code === 'ENOENT' ? null : `cannot read ${file} (${code ?? 'error'})` };
    }
    try {
      const parsed = StoredRecommendationSchema.safeParse(JSON.parse(text));
      if (parsed.success) return { rec: parsed.data, problem: null };
      const issue = parsed.error.issues[0];
      return { rec: null, problem: `${file}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}; ignored` };
    } catch {
      return { rec: null, problem: `${file}: not JSON (truncated or corrupt); ignored` };
    }
  }

  async save(id: string, rec: StoredRecommendation): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
    await writeFileAtomic(this.#file(id), `${JSON.stringify(rec)}\n`);
  }

  #file(id: string): string {
    return path.join(this.#dir, `${id}.json`);
  }
}
