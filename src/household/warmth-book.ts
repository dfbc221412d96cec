import { rename } from 'node:fs/promises';
import type { Logger } from 'pino';
import { clampOffset, faded, voted, type Feedback } from '../domain/warmth.js';
import type { ErrorCode, WarningCode } from '../shared/codes.js';
import { removeTempFilesOf, writeFileAtomic } from '../store/atomic-write.js';
import { storeWriteError } from '../store/store-error.js';
import type { Clock } from '../time/clock.js';
import { readWarmthFile, warmthFileText, type WarmthEntry } from './warmth-file.js';

/**
 * Each person's own warmth (docs/guides/household.md, "Their own warmth"), by the rules of src/domain/warmth.ts: a
 * "too cold" / "too warm" vote moves the offset one step toward the felt side, once between two new frames of the
 * person (they vote on what they read: a second press before the next frame has nothing new to judge); a direct set
 * replaces it, clamped; with no vote it fades toward 0. Kept in `<state_dir>/warmth.json` through the atomic writer;
 * a file that cannot be read is set aside as `warmth.json.corrupt` and every offset starts from 0, as the ledger
 * survives a torn file: a lost offset costs a few presses, a crash costs the frames.
 */

/** The file's name in `state_dir`. */
export const WARMTH_FILE = 'warmth.json';

export interface WarmthBookOptions {
  /** The people the book keeps (config `people[].id`); votes and sets for anyone else are refused. */
  personIds: readonly string[];
  /** Where the file lives (config `state_dir`); the book writes `warmth.json` there. */
  stateDir: string;
  /** Dates the votes and sets, and reads the time the offsets fade by. */
  clock: Clock;
  /** Warnings (refused votes and sets, an unreadable file) and write failures. */
  logger: Logger;
}

/** What a vote or a set came to. */
export type WarmthOutcome =
  /** The offset is now `offsetC` (it may equal the old one: a vote at the clamp). */
  | { kind: 'changed'; offsetC: number }
  /** Nothing changed; `code` says why (logged with it). */
  | { kind: 'ignored'; code: WarningCode; message: string };

export class WarmthBook {
  readonly #o: WarmthBookOptions;
  readonly #log: Logger;
  readonly #file: string;
  readonly #entries = new Map<string, WarmthEntry>();
  readonly #listeners = new Set<(personId: string) => void>();
  /** The write under way (or the last one), so that writes follow each other and `flushed()` can wait for them. */
  #writing: Promise<void> = Promise.resolve();

  constructor(opts: WarmthBookOptions) {
    this.#o = opts;
    this.#log = opts.logger.child({ part: 'warmth' });
    this.#file = `${opts.stateDir.replace(/\/+$/, '')}/${WARMTH_FILE}`;
  }

  /** The file the book keeps. */
  get file(): string {
    return this.#file;
  }

  /**
   * Reads the file. A bad one is renamed `.corrupt`, warned about (W_WARMTH_UNREADABLE) and started over from 0. The
   * temp files of writes a kill cut off (never renamed, so never read) are removed: nothing else would.
   */
  async load(): Promise<void> {
    await removeTempFilesOf(this.#file);
    const read = await readWarmthFile(this.#file);
    this.#entries.clear();
    if (read.kind === 'ok') {
      for (const [id, e] of read.people)
        if (this.#o.personIds.includes(id)) this.#entries.set(id, { ...e, offsetC: clampOffset(e.offsetC) });
      return;
    }
    if (read.kind === 'missing') return;
    this.#log.warn(
      { code: 'W_WARMTH_UNREADABLE' satisfies WarningCode, file: this.#file },
      `${read.reason}; every warmth offset starts from 0 (the file is kept as ${WARMTH_FILE}.corrupt)`,
    );
    await rename(this.#file, `${this.#file}.corrupt`).catch(() => undefined);
    this.#save();
  }

  /** The person's offset at `now`, °C (negative: runs cold), faded since it was last set; 0 for anyone unknown. */
  offsetOf(personId: string, now: number): number {
    const e = this.#entries.get(personId);
    return e === undefined ? 0 : faded(e.offsetC, now - e.setAt);
  }

  /** When the offset was last set (ms since the epoch), or null: never. */
  setAtOf(personId: string): number | null {
    return this.#entries.get(personId)?.setAt ?? null;
  }

  /** A "too cold" / "too warm" press: one step toward the felt side, once between two new frames of the person. */
  vote(personId: string, vote: Feedback): WarmthOutcome {
    if (!this.#o.personIds.includes(personId)) return this.#unknown(personId);
    const now = this.#o.clock.now();
    const e = this.#entries.get(personId);
    if (e?.votedSinceFrame === true) {
      const message = `a second vote for ${personId} before their next frame; ignored (presses between two frames count once)`;
      this.#log.warn({ code: 'W_WARMTH_VOTE_IGNORED' satisfies WarningCode, person: personId, vote }, message);
      return { kind: 'ignored', code: 'W_WARMTH_VOTE_IGNORED', message };
    }
    const offsetC = voted(this.offsetOf(personId, now), vote);
    this.#entries.set(personId, { offsetC, setAt: now, votedSinceFrame: true });
    this.#log.info({ person: personId, vote, offsetC }, 'warmth vote counted');
    this.#changed(personId);
    return { kind: 'changed', offsetC };
  }

  /**
   * A direct set (Home Assistant's number entity): the payload's number of °C replaces the offset, clamped to
   * ±WARMTH.maxC. Anything but a plain decimal number is refused (W_WARMTH_OFFSET_REFUSED) and changes nothing.
   */
  set(personId: string, payload: string): WarmthOutcome {
    if (!this.#o.personIds.includes(personId)) return this.#unknown(personId);
    const text = payload.trim();
    const value = /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : NaN;
    if (!Number.isFinite(value)) {
      const message = `warmth offset for ${personId} is not a number of °C (got ${JSON.stringify(text.slice(0, 40))}); unchanged`;
      this.#log.warn({ code: 'W_WARMTH_OFFSET_REFUSED' satisfies WarningCode, person: personId }, message);
      return { kind: 'ignored', code: 'W_WARMTH_OFFSET_REFUSED', message };
    }
    const offsetC = clampOffset(value);
    const before = this.#entries.get(personId);
    // A set is no vote: it leaves the once-a-frame count as it was.
    this.#entries.set(personId, {
      offsetC,
      setAt: this.#o.clock.now(),
      votedSinceFrame: before?.votedSinceFrame ?? false,
    });
    this.#log.info({ person: personId, offsetC, asked: value }, 'warmth offset set');
    this.#changed(personId);
    return { kind: 'changed', offsetC };
  }

  /** A new frame of the person was published: their next vote counts again. */
  frameShown(personId: string): void {
    const e = this.#entries.get(personId);
    if (e === undefined || !e.votedSinceFrame) return;
    this.#entries.set(personId, { ...e, votedSinceFrame: false });
    this.#save();
  }

  /** Called with the person's id after each vote or set that counted; returns the unsubscribe. */
  onChange(listener: (personId: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves once every change so far is on disk (or failed, logged with E_STATE_WRITE). */
  flushed(): Promise<void> {
    return this.#writing;
  }

  #unknown(personId: string): WarmthOutcome {
    const message = `warmth for "${personId.slice(0, 64)}", who is not in people; ignored`;
    this.#log.warn({ code: 'W_PERSON_UNKNOWN' satisfies WarningCode }, message);
    return { kind: 'ignored', code: 'W_PERSON_UNKNOWN', message };
  }

  #changed(personId: string): void {
    this.#save();
    for (const l of this.#listeners) l(personId);
  }

  /** Writes the whole book after the write under way; a failure is logged and the offsets stay in memory. */
  #save(): void {
    const text = warmthFileText(this.#entries);
    this.#writing = this.#writing.then(() =>
      writeFileAtomic(this.#file, text).catch((cause: unknown) => {
        const err = storeWriteError(this.#file, cause);
        this.#log.error({ err, code: err.code satisfies ErrorCode }, 'the warmth offsets could not be saved');
      }),
    );
  }
}
