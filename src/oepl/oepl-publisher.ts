import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { Agent } from 'undici';
import type { OpenEPaperLinkConfig } from '../config/schema.js';
import { loadPanel, type PanelProfile } from '../panels/panels.js';
import { displayRenderOptions, drawInProcess, type DrawFrame, type RenderContext } from '../render/display-frame.js';
import { pngToJpeg } from '../render/encode/jpeg.js';
import { onePersonOf } from '../state/person-view.js';
import type { Publisher } from '../publish/publisher.js';
import { frameLook, type ShownView } from '../state/display-views.js';
import type { TagStatusBook } from '../state/tag-status.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { backoffDelay, type BackoffPolicy } from '../time/backoff-delay.js';
import type { Clock } from '../time/clock.js';
import { FailedTries, type Unfed } from './failed-tries.js';
import { OeplError } from './oepl-error.js';
import { uploadJpeg, type UploadResult } from './upload.js';

/**
 * OpenEPaperLink tags as a publisher (docs/guides/openepaperlink.md). For each new frame of a display, each of its tags gets
 * the frame drawn for the tag's panel, as a baseline JPEG, pushed to the access point's /imgupload. A push costs the
 * tag a refresh and battery, so a picture already accepted is never sent again (per tag, the hash of the frame it was
 * made from, kept in <state_dir>/oepl-pushed.json). A busy access point (409) or one out of reach is tried again
 * with backoff on the clock, in the background: publish() returns once the picture is made, and a newer frame
 * replaces one still waiting. An upload that got no whole answer in time may have reached the access point, so that
 * picture is not sent again: only a newer one, after the backoff. An unknown MAC, or another refusal, is the display's
 * problem (TagStatusBook), never a crash, and is not retried until the next frame; so is a tag whose pushes keep
 * failing (failed-tries.ts), until a push is answered.
 */

export const PUSHED_FILE = 'oepl-pushed.json';
/**
 * After a 409 or a connection fault: 5 s, 10 s, 20 s ... at most 5 min, without jitter (one access point, whose tags
 * are pushed one at a time anyway).
 */
export const OEPL_BACKOFF: BackoffPolicy = { baseMs: 5_000, maxMs: 5 * 60_000 };
/** The default deadline of one upload, answer included. */
const UPLOAD_TIMEOUT_MS = 30_000;

type Tag = OpenEPaperLinkConfig['tags'][number];

interface Picture {
  displayId: string;
  /** sha256 of the frame drawn for the tag (its PNG): what "the same picture" means. */
  hash: string;
  jpeg: Buffer;
  nextUpdateAt: Date | null;
}

interface TagSlot {
  tag: Tag;
  panel: PanelProfile;
  /** The display frame and look last drawn for this tag: the same again is not drawn again. */
  drawnFrom: string | null;
  /** The picture waiting to be sent (a newer one replaces it), or null. */
  pending: Picture | null;
  inflight: boolean;
  timer: unknown;
  /** Failed tries since the tag was last fed (busy, unreachable, unconfirmed): the backoff, and when it is a problem. */
  failures: FailedTries;
  /** The hash of a picture sent without a whole answer: the access point may have it, so it is not sent again. */
  unconfirmed: string | null;
}

export interface OeplPublisherOptions {
  /** The access point's base URL (openepaperlink.access_point). */
  accessPoint: string;
  /** The tags, each with its display and panel profile id (checked by the config loader). */
  tags: readonly Tag[];
  /** How each display's frames are drawn (its name, locale, time zone), resolved once. */
  render: RenderContext;
  /** Draws a display's state for a tag's panel: the daemon's drawer; default in this process. */
  draw?: DrawFrame;
  /** Where each tag's problem goes (the views read it). */
  status: TagStatusBook;
  /** Where the hashes of the accepted pictures are kept; absent: in memory only. */
  stateDir?: string;
  /** Backoff timers and the ttl's minutes. */
  clock: Clock;
  logger: Logger;
  /** The HTTP dispatcher; default an Agent of its own (closed by stop()). */
  dispatcher?: InstanceType<typeof Agent>;
  /** The deadline of one upload, answer included; default UPLOAD_TIMEOUT_MS. */
  uploadTimeoutMs?: number;
  /**
   * The end of the display's quiet hours holding now, or null (household-gate.ts): no push in them (a tag's refresh
   * at night is battery nobody sees); the newest picture goes at their end. Default: none.
   */
  quietEnd?: (displayId: string) => number | null;
}

export class OeplPublisher implements Publisher {
  readonly name = 'openepaperlink';
  readonly #o: OeplPublisherOptions;
  readonly #slots: TagSlot[];
  readonly #agent: InstanceType<typeof Agent>;
  /** Per MAC, the hash of the last picture the access point accepted. */
  #pushed: Record<string, string> = {};
  #stopped = false;
  #saving: Promise<void> = Promise.resolve();
  /** Sends under way, so that stop() and the tests can wait for them. */
  readonly #sends = new Set<Promise<void>>();

  constructor(opts: OeplPublisherOptions) {
    this.#o = opts;
    this.#slots = opts.tags.map((tag) => ({
      tag,
      panel: loadPanel(tag.panel),
      drawnFrom: null,
      pending: null,
      inflight: false,
      timer: null,
      failures: new FailedTries({ clock: opts.clock, onUnfed: (u) => this.#unfed(tag, u) }),
      unconfirmed: null,
    }));
    this.#agent = opts.dispatcher ?? new Agent({ connectTimeout: 10_000, keepAliveTimeout: 4_000 });
  }

  get #file(): string | null {
    return this.#o.stateDir === undefined ? null : path.join(this.#o.stateDir, PUSHED_FILE);
  }

  async start(): Promise<void> {
    const file = this.#file;
    if (file === null) return;
    try {
      const v = JSON.parse(await readFile(file, 'utf8')) as unknown;
      if (typeof v === 'object' && v !== null) {
        this.#pushed = Object.fromEntries(
          Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'),
        );
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.#o.logger.warn(
          { code: 'W_OEPL_STATE', file, reason: (err as Error).message },
          'OpenEPaperLink: the pushed pictures file cannot be read: started without it',
        );
      }
    }
  }

  async publish(view: ShownView): Promise<void> {
    if (this.#stopped) return;
    for (const slot of this.#slots.filter((s) => s.tag.display === view.display.id)) {
      const from = `${view.frame.hash}/${frameLook(view)}`;
      if (slot.drawnFrom === from) continue;
      const picture = await this.#picture(view, slot);
      slot.drawnFrom = from;
      if (picture === null) continue;
      slot.pending = picture;
      this.#kick(slot);
    }
  }

  /** Resolves when no picture is being sent (retries waiting on the clock do not count). */
  async settled(): Promise<void> {
    while (this.#sends.size > 0) await Promise.all([...this.#sends]);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const s of this.#slots) {
      if (s.timer !== null) this.#o.clock.clearTimeout(s.timer);
      s.failures.stop();
    }
    await this.settled();
    if (this.#o.dispatcher === undefined) await this.#agent.close();
  }

  /** The tag's picture of this view, or null when the tag already shows it (or it cannot be made). */
  async #picture(view: ShownView, slot: TagSlot): Promise<Picture | null> {
    const { display } = view;
    try {
      const frame = await (this.#o.draw ?? drawInProcess)(
        displayRenderOptions(display, this.#o.render),
        {
          rec: view.rec,
          status: view.status,
          now: view.frameSince,
          storeProblem: view.storeProblem,
          stale: view.stale,
          ...onePersonOf(view, slot.tag.person),
        },
        // The tag is fed its own size: the access point turns it for a tag mounted otherwise (its `rotate`).
        { panel: slot.panel, rotation: 0 },
      );
      const hash = createHash('sha256').update(frame.png).digest('hex');
      if (this.#pushed[slot.tag.mac] === hash || slot.pending?.hash === hash || slot.unconfirmed === hash) return null;
      const { jpeg } = await pngToJpeg(frame.png);
      return { displayId: display.id, hash, jpeg, nextUpdateAt: view.nextUpdateAt };
    } catch (err) {
      this.#o.logger.error(
        { err, display: display.id, mac: slot.tag.mac },
        'OpenEPaperLink: the picture for a tag cannot be made',
      );
      return null;
    }
  }

  /** Sends the slot's pending picture now, unless one is under way or a retry is waiting. */
  #kick(slot: TagSlot): void {
    if (this.#stopped || slot.inflight || slot.timer !== null || slot.pending === null) return;
    const quietEnd = this.#o.quietEnd?.(slot.tag.display) ?? null;
    if (quietEnd !== null) {
      this.#o.logger.info(
        { display: slot.tag.display, mac: slot.tag.mac, until: new Date(quietEnd).toISOString() },
        'OpenEPaperLink: quiet hours; the picture goes at their end',
      );
      slot.timer = this.#o.clock.setTimeout(
        () => {
          slot.timer = null;
          this.#kick(slot);
        },
        Math.max(1000, quietEnd - this.#o.clock.now()),
      );
      return;
    }
    const p = this.#send(slot).finally(() => this.#sends.delete(p));
    this.#sends.add(p);
  }

  async #send(slot: TagSlot): Promise<void> {
    const pic = slot.pending;
    if (pic === null) return;
    slot.pending = null;
    slot.inflight = true;
    const { mac } = slot.tag;
    let result: UploadResult;
    try {
      result = await uploadJpeg({
        accessPoint: this.#o.accessPoint,
        mac,
        jpeg: pic.jpeg,
        ttlMinutes: this.#ttl(pic),
        dispatcher: this.#agent,
        timeoutMs: this.#o.uploadTimeoutMs ?? UPLOAD_TIMEOUT_MS,
      });
    } finally {
      slot.inflight = false;
    }
    const log = this.#o.logger;
    const now = new Date(this.#o.clock.now()).toISOString();
    switch (result.kind) {
      case 'accepted':
        this.#answered(slot);
        this.#pushed[mac] = pic.hash;
        this.#o.status.set(pic.displayId, mac, null);
        log.info(
          { display: pic.displayId, mac, bytes: pic.jpeg.length },
          'OpenEPaperLink: the access point took the picture',
        );
        await this.#save();
        break;
      case 'busy':
      case 'unreachable':
      case 'unconfirmed': {
        // This failure is counted below (once the publisher is known not to be stopping): it is the count's next.
        const wait = backoffDelay(slot.failures.count + 1, OEPL_BACKOFF);
        if (result.kind === 'unconfirmed') {
          // The access point may have it: sending it again could cost the tag a second refresh of the same picture.
          slot.unconfirmed = pic.hash;
          log.warn(
            { code: 'W_OEPL_UNCONFIRMED', display: pic.displayId, mac, reason: result.detail, newerInMs: wait },
            'OpenEPaperLink: no answer to the upload: not sent again, a newer picture goes after the backoff',
          );
        } else {
          // A newer picture waiting replaces this one; else this one is sent again.
          slot.pending ??= pic;
          log.warn(
            { code: 'W_OEPL_RETRY', display: pic.displayId, mac, reason: result.detail, retryInMs: wait },
            'OpenEPaperLink: the access point cannot take the picture now: trying again',
          );
        }
        if (!this.#stopped) {
          slot.failures.failed(result.detail);
          slot.timer = this.#o.clock.setTimeout(() => {
            slot.timer = null;
            this.#kick(slot);
          }, wait);
        }
        return;
      }
      case 'mac_unknown':
        this.#answered(slot);
        this.#o.status.set(pic.displayId, mac, { mac, code: 'E_OEPL_MAC_UNKNOWN', message: result.detail, since: now });
        log.error(
          { err: new OeplError('E_OEPL_MAC_UNKNOWN', result.detail), display: pic.displayId, mac },
          'OpenEPaperLink: the access point knows no such tag',
        );
        break;
      case 'refused':
        this.#answered(slot);
        this.#o.status.set(pic.displayId, mac, {
          mac,
          code: 'E_OEPL_PUSH',
          message: `the access point refused the picture: ${result.detail}`,
          since: now,
        });
        log.error(
          { err: new OeplError('E_OEPL_PUSH', result.detail), display: pic.displayId, mac },
          'OpenEPaperLink: the access point refused the picture',
        );
        break;
    }
    this.#kick(slot);
  }

  /** A push answered (taken, or refused for a reason of its own): no longer unconfirmed, the failed tries start again. */
  #answered(slot: TagSlot): void {
    slot.failures.reset();
    slot.unconfirmed = null;
  }

  /** A tag whose pushes keep failing: the display's problem (logged once), until a push is answered. */
  #unfed(tag: Tag, u: Unfed): void {
    const since = new Date(u.since).toISOString();
    const message = `no picture taken in ${u.tries === 1 ? '1 try' : `${u.tries} tries`} since ${since} (the last: ${u.last})`;
    this.#o.status.set(tag.display, tag.mac, { mac: tag.mac, code: 'E_OEPL_UNREACHABLE', message, since });
    if (u.first)
      this.#o.logger.error(
        { err: new OeplError('E_OEPL_UNREACHABLE', message), display: tag.display, mac: tag.mac },
        'OpenEPaperLink: a tag is not fed: shown as its problem until a push is taken',
      );
  }

  /** Minutes until the display's next update (at least 1), or null when none is planned. */
  #ttl(pic: Picture): number | null {
    if (pic.nextUpdateAt === null) return null;
    return Math.max(1, Math.ceil((pic.nextUpdateAt.getTime() - this.#o.clock.now()) / 60_000));
  }

  /** Writes the hashes, one write at a time (each of the newest map): two tags accepted together never race. */
  #save(): Promise<void> {
    const file = this.#file;
    if (file === null) return Promise.resolve();
    this.#saving = this.#saving.then(async () => {
      try {
        await writeFileAtomic(file, `${JSON.stringify(this.#pushed)}\n`);
      } catch (err) {
        this.#o.logger.warn(
          { code: 'W_OEPL_STATE', file, reason: (err as Error).message },
          'OpenEPaperLink: the pushed pictures file cannot be written: kept in memory',
        );
      }
    });
    return this.#saving;
  }
}
