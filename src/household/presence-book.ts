import type { Clock } from '../time/clock.js';

/** Where a person is, as their presence topic last said; `unknown` (no topic, no message yet) counts as at home. */
export type Presence = 'home' | 'away' | 'unknown';

/** A person's presence and since when the book has known it. */
export interface PresenceEntry {
  presence: Presence;
  /** When the presence last changed (ms since the epoch); null while unknown. */
  since: number | null;
}

/** A change the book saw: who, from what, to what, and how long they had been away (for an arrival). */
export interface PresenceChange {
  personId: string;
  from: Presence;
  to: Presence;
  /** For an arrival after a known absence: ms away; otherwise null. */
  awayMs: number | null;
}

export interface PresenceBookOptions {
  /** The people the book keeps (config `people[].id`); others' messages are ignored. */
  personIds: readonly string[];
  /** Dates the changes. */
  clock: Clock;
}

/**
 * Who is at home (docs/guides/household.md, "Presence from Home Assistant"): fed with the payloads of the people's
 * presence topics, read by the buying side (no purchase for people who are away) and the state (`away`). Home
 * Assistant's person and device_tracker states are `home`, `not_home` or a zone's name: only `home` is at home.
 */
export class PresenceBook {
  readonly #clock: Clock;
  readonly #entries = new Map<string, PresenceEntry>();
  readonly #listeners = new Set<(c: PresenceChange) => void>();

  constructor(opts: PresenceBookOptions) {
    this.#clock = opts.clock;
    for (const id of opts.personIds) this.#entries.set(id, { presence: 'unknown', since: null });
  }

  /** A presence topic's payload for `personId`; returns the change, or null when nothing changed. */
  record(personId: string, payload: string): PresenceChange | null {
    const entry = this.#entries.get(personId);
    if (entry === undefined) return null;
    const to: Presence = payload.trim().toLowerCase() === 'home' ? 'home' : 'away';
    if (entry.presence === to) return null;
    const now = this.#clock.now();
    const awayMs = to === 'home' && entry.presence === 'away' && entry.since !== null ? now - entry.since : null;
    const change: PresenceChange = { personId, from: entry.presence, to, awayMs };
    this.#entries.set(personId, { presence: to, since: now });
    for (const l of this.#listeners) l(change);
    return change;
  }

  /** The person's presence; an id the book does not keep is unknown. */
  presenceOf(personId: string): Presence {
    return this.#entries.get(personId)?.presence ?? 'unknown';
  }

  /** At home, or not known to be away. */
  isHome(personId: string): boolean {
    return this.presenceOf(personId) !== 'away';
  }

  entry(personId: string): PresenceEntry {
    return this.#entries.get(personId) ?? { presence: 'unknown', since: null };
  }

  /**
   * Resolves once each of `personIds` has a known presence, or after `ms` (a topic that holds no retained message
   * stays unknown, at home). The broker sends the retained messages just after it takes the subscriptions, maybe after
   * the daemon's start has gone on: a start that made up its downtime before them would buy for people who are out.
   */
  settled(personIds: readonly string[], ms: number): Promise<void> {
    const known = (): boolean => personIds.every((id) => this.presenceOf(id) !== 'unknown');
    if (known()) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.#clock.clearTimeout(timer);
        off();
        resolve();
      };
      const off = this.onChange(() => {
        if (known()) done();
      });
      const timer = this.#clock.setTimeout(done, ms);
    });
  }

  /** Called with each change; returns the unsubscribe. */
  onChange(listener: (c: PresenceChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
