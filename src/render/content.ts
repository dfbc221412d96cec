import type { StoredRecommendation, Weather } from '../api/schemas.js';
import { alertTexts, formatAge, formatTime } from './format.js';
import { garmentsOf, type GarmentId } from './garments.js';
import type { StatusMark } from './marks.js';

/** What a frame says, in words, prepared from the frame input: layouts only place it. Pure. */

export type FrameStatus =
  | { kind: 'ok' }
  | { kind: 'stale'; since: Date }
  | { kind: 'key_rejected'; message: string }
  /** Our own budget is used up; `unknownCredits` of what it counts were sent without a usable answer (charge unknown). */
  | { kind: 'budget_exhausted'; until: Date; unknownCredits?: number }
  /** The service's account is out of credits (402): not our budget. Asked again at `until`, or at once on refresh. */
  | { kind: 'credits_out'; since: Date; until: Date }
  | { kind: 'unreachable'; since: Date; message: string };

export interface FrameInput {
  /** null: nothing fetched yet (an error screen without an outfit). */
  rec: StoredRecommendation | null;
  displayName: string;
  /** IANA timezone, for the times shown. */
  timezone: string;
  status: FrameStatus;
  now: Date;
  /** The garments the pictogram row shows; default: what garmentsOf reads from the outfit. */
  garments?: GarmentId[];
}

export interface StatusText {
  kind: Exclude<FrameStatus['kind'], 'ok'>;
  /** An error (the band is inverted) rather than a stale mark. */
  error: boolean;
  title: string;
  detail: string;
  /** Title and detail in a few words, for small panels. */
  short: string;
  mark: StatusMark;
}

export interface FrameContent {
  name: string;
  /** "07:30": when the shown data was fetched, in the display's timezone. */
  updated: string | null;
  /** "2 h 5 min": how old the shown data is, when it is stale. */
  age: string | null;
  /** The frame's own time, "07:45". */
  now: string;
  /** Readings the response lacked are undefined here; the layouts show them as "—" (format.ts MISSING). */
  weather: Weather | null;
  outfit: string | null;
  /** What to wear, as pictograms (garments.ts ids); empty without an outfit. */
  garments: GarmentId[];
  reasoning: string | null;
  alerts: string[];
  status: StatusText | null;
}

function statusText(input: FrameInput): StatusText | null {
  const t = (d: Date): string => formatTime(d, input.timezone, input.now);
  const s = input.status;
  switch (s.kind) {
    case 'ok':
      return null;
    case 'stale':
      return { kind: s.kind, error: false, title: 'Out of date', detail: `no update since ${t(s.since)}`, short: `Stale since ${t(s.since)}`, mark: 'clock' };
    case 'key_rejected':
      return {
        kind: s.kind,
        error: true,
        title: 'API key rejected',
        detail: s.message.trim() || 'the service refused the key',
        short: `Key rejected: ${s.message.trim()}`,
        mark: 'key',
      };
    case 'budget_exhausted': {
      const unknown = s.unknownCredits ?? 0;
      const detail = `until ${t(s.until)}${unknown > 0 ? ` · ${unknown} of them unconfirmed` : ''}`;
      return { kind: s.kind, error: true, title: 'Credit budget used up', detail, short: `No credits until ${t(s.until)}`, mark: 'hourglass' };
    }
    case 'credits_out':
      return {
        kind: s.kind,
        error: true,
        title: 'Service account out of credits',
        detail: `top up in the service's web dashboard · next try ${t(s.until)}`,
        short: 'Account out of credits: top up',
        mark: 'hourglass',
      };
    case 'unreachable': {
      const msg = s.message.trim();
      return {
        kind: s.kind,
        error: true,
        title: 'Service unreachable',
        detail: `since ${t(s.since)}${msg ? ` · ${msg}` : ''}`,
        short: `Offline since ${t(s.since)}`,
        mark: 'offline',
      };
    }
  }
}

export function frameContent(input: FrameInput): FrameContent {
  const rec = input.rec;
  const fetched = rec ? new Date(rec.fetched_at || (rec.generated_at ?? '')) : null;
  const validFetched = fetched && !Number.isNaN(fetched.getTime()) ? fetched : null;
  return {
    name: input.displayName.trim(),
    updated: validFetched ? formatTime(validFetched, input.timezone, input.now) : null,
    age: validFetched && input.status.kind === 'stale' ? formatAge(input.now.getTime() - validFetched.getTime()) : null,
    now: formatTime(input.now, input.timezone, input.now),
    weather: rec?.weather ?? null,
    outfit: rec ? rec.outfit.trim() : null,
    garments: rec ? (input.garments ?? garmentsOf(rec.outfit)) : [],
    reasoning: rec?.reasoning?.trim() || null,
    alerts: rec ? alertTexts(rec.weather.alerts) : [],
    status: statusText(input),
  };
}
