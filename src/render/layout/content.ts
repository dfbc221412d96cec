import path from 'node:path';
import type { StoredRecommendation, Weather } from '../../api/schemas.js';
import { fill, type LabelKey } from '../../i18n/labels.js';
import { ENGLISH, type Locale } from '../../i18n/locale.js';
import { formatAge, formatDate, formatTime, frameAlerts, staleBadgeText, type FrameAlert } from './format.js';
import { feelsLike, feelsLikeShort, readingsOf, type Reading } from './reading-values.js';
import type { GarmentId } from '../../domain/garments.js';
import { garmentRow, type RowItem } from '../../domain/weather-demands.js';
import { readAnswer } from '../../domain/answer.js';
import { conditionWords } from './condition-words.js';
import type { Condition } from '../../domain/condition.js';
import type { StatusMark } from '../pictograms/marks.js';
import { storeProblemOsCode, type StoreProblem } from '../../store/store-error.js';
import type { FrameStatus, ServiceProblem, StatusPlace } from '../../domain/frame-status.js';
import { plural } from '../../i18n/plural.js';
import { outfitAge, type OutfitAge } from './outfit-age.js';

/**
 * What a frame says, in words, prepared from the frame input: layouts only place it. Pure. Our words are in the
 * input's locale (src/i18n/); the service's texts stay as sent, but for the weather's description (condition-words.ts).
 */

export interface FrameInput {
  /** null: nothing fetched yet (an error screen without an outfit). */
  rec: StoredRecommendation | null;
  displayName: string;
  /** IANA timezone, for the times shown. */
  timezone: string;
  status: FrameStatus;
  now: Date;
  /** The garments the pictogram row shows (ordered and ticked as the answer's are); default: the answer's reading (src/domain/answer.ts). */
  garments?: readonly GarmentId[];
  /** Labels, dates and numbers; default: English. */
  locale?: Locale;
  /**
   * A state file that cannot be saved (E_STATE_WRITE). Nothing is bought until it can, so a frame without an outfit
   * names this cause instead of "Waiting for the first outfit"; a frame with one is unchanged (the status page says
   * it). A last good file that could not be read back (E_STATE_READ) changes nothing on the frame.
   */
  storeProblem?: StoreProblem | null;
  /**
   * When the answer last bought was bought, where it could not be read back at a start: a frame without an outfit says
   * so instead of "Waiting for the first outfit" (its slot is paid, and waits for the next).
   */
  notReadBack?: Date | null;
  /**
   * The outfit on show is out of date by its schedule (a slot passed without a new answer): the frame shows its age
   * in a badge and marks the outfit as old, whatever the status says. The status `stale` sets it too.
   */
  stale?: boolean;
  /** Where the frame sends its reader for the detail: the status page's address, or the log; default "the status page". */
  statusPlace?: StatusPlace;
  /**
   * A household frame (docs/guides/household.md): each person's own outfit on one frame, the weather once (from the
   * first person with an answer; `rec` is then ignored). Absent or empty: the single outfit of `rec`, as before.
   */
  people?: readonly FramePerson[];
  /**
   * Whom a one-person frame of the household shows (an id of `people`), where the panel is too small for columns;
   * default the first. Wall frames draw everyone and ignore it.
   */
  onePerson?: string;
}

/** One person on a household frame. */
export interface FramePerson {
  /** The person's id (config `people[].id`). */
  id: string;
  /** As shown on the frame. */
  name: string;
  /** Their last good answer; null: none yet (their column says so). */
  rec: StoredRecommendation | null;
  /** Their warmth offset, °C (negative: runs cold); 0 when they have none. */
  offsetC: number;
  /** Garments added for them at their own feels-like (domain/warmth.ts additionsFor), drawn as "+ for <name>". */
  additions: readonly GarmentId[];
  /** Not at home, as their presence topic last said: their outfit is not bought anew, and the frame says they are out. */
  away: boolean;
  /** Their answer is out of date by the schedule (per person, as a display's is). */
  stale?: boolean;
}

export interface StatusText {
  /** A frame status, or the state problem on a frame without an outfit. */
  kind: Exclude<FrameStatus['kind'], 'ok'> | 'state_problem' | 'not_read_back' | 'withdrawn';
  /** An error (the band is inverted) rather than a stale mark. */
  error: boolean;
  title: string;
  detail: string;
  /** Title and detail in a few words, for small panels. */
  short: string;
  /** "since 06:00": how long the failure has lasted, for the screen without an outfit; null where it says nothing. */
  since: string | null;
  mark: StatusMark;
}

export interface FrameContent {
  name: string;
  /**
   * "07:30": when the shown data was fetched, in the display's timezone; null for an outfit of an earlier day, whose
   * headline says how many days old it is (a date would leave the reader to work out its weekday).
   */
  updated: string | null;
  /** "2 h 5 min": how old the shown data is, when it is stale. */
  age: string | null;
  /**
   * The badge of an outfit out of date on the day it was made for (a slot passed without a new one): "3 h old"; null
   * while it is current, and for an outfit of an earlier day (its headline says how old it is).
   */
  ageBadge: string | null;
  /**
   * The headline of an outfit made for an earlier day (the display's time zone): "Yesterday's outfit", "Outfit from
   * 2 days ago" (outfit-age.ts); null for one made for today.
   */
  headline: string | null;
  /** The outfit (and the weather with it) is out of date: a badge or a headline says how old, a dashed frame marks it. */
  old: boolean;
  /** How old the outfit is by its day (outfit-age.ts); 'withdrawn' leaves no outfit on the frame. */
  outfitAge: OutfitAge;
  /** The frame's own time, "07:45". */
  now: string;
  /** The frame's day, "Saturday 28 November", and its short form "Sat 28 Nov": wall panels show it in the band. */
  date: { long: string; short: string };
  /** Readings the response lacked are undefined here; the layouts show them as "—" (format.ts MISSING). */
  weather: Weather | null;
  /** The readings' values in the locale's numbers ("2,5", "71 %"); empty without weather. */
  readings: Reading[];
  /** "Feels like 3°" in the locale's words; null without weather. */
  feelsLike: string | null;
  /** "Feels 3°": the same for a narrow weather column; null without weather. */
  feelsLikeShort: string | null;
  outfit: string | null;
  /** What to wear, as pictograms (garments.ts ids); empty without an outfit. */
  garments: readonly GarmentId[];
  /** The pictogram row: the garments in the order the weather asks for them, the tick on a benign day (weather-demands.ts). */
  row: readonly RowItem[];
  /** The weather condition the icon shows (the answer's reading), or null without an answer. */
  condition: Condition | null;
  /** The condition in words, in the display's language (condition-words.ts); null: none. */
  description: string | null;
  reasoning: string | null;
  /** The alerts, most severe first, each with its severity (format.ts frameAlerts). */
  alerts: FrameAlert[];
  status: StatusText | null;
  /** The language of the labels the layouts add ("Feels like", "STALE") and of the numbers they format. */
  locale: Locale;
  /**
   * The people of a household frame (household-content.ts), each with their own outfit; null: a frame of one outfit.
   * The frame's own fields then hold the shared weather (from the first person with an answer) and the status.
   */
  people?: PersonContent[] | null;
}

/** One person on a household frame, in words (household-content.ts). */
export interface PersonContent {
  id: string;
  name: string;
  /** What their own outfit says, as a frame of their answer alone would (its weather is not drawn again). */
  content: FrameContent;
  /** Garments added at their own feels-like, drawn after "+ for <name>" (never among the service's garments). */
  additions: readonly GarmentId[];
  offsetC: number;
  away: boolean;
}

/** "status page: http://pi.local:8321", where the address is known; the log where there is no status page. */
function whereToLook(place: StatusPlace | undefined, l: Locale['labels'], unknown: string): string {
  if (place === undefined || place.kind === 'page_unknown') return unknown;
  return place.kind === 'page' ? fill(l.status_page_at, { url: place.url }) : l.see_log;
}

/**
 * The screen of an outfit too old to show (outfit-age.ts): "No current outfit", how old the last one is, and why no
 * new one came where that is a failure ("No connection to the outfit service · trying again at 07:12"). Never a
 * "since" with a date: the age in days says it.
 */
function withdrawnText(input: FrameInput, locale: Locale, days: number): StatusText {
  const l = locale.labels;
  const last = plural(l.last_outfit_days_ago, days, locale.tag);
  const reason = statusText(input, locale);
  const why = reason?.error ? ` · ${reason.title} · ${reason.detail}` : '';
  return {
    kind: 'withdrawn',
    error: reason?.error ?? false,
    title: l.no_current_outfit,
    detail: `${last}${why}`,
    short: l.no_current_outfit,
    since: null,
    mark: reason?.mark ?? 'clock',
  };
}

/** The badge of an outfit out of date on its own day, or null. */
function ageBadgeText(age: OutfitAge, locale: Locale): string | null {
  if (age.kind !== 'stale') return null;
  return age.ms === null ? locale.labels.stale_badge : staleBadgeText(age.ms, locale);
}

/** The headline of an outfit of an earlier day, or null. */
function headlineText(age: OutfitAge, locale: Locale): string | null {
  if (age.kind !== 'past_day') return null;
  return age.days === 1 ? locale.labels.outfit_yesterday : plural(locale.labels.outfit_days_ago, age.days, locale.tag);
}

function statusText(input: FrameInput, locale: Locale): StatusText | null {
  const l = locale.labels;
  const time = (d: Date): { time: string } => ({ time: formatTime(d, input.timezone, input.now, locale) });
  const s = input.status;
  switch (s.kind) {
    case 'ok':
      return null;
    case 'stale':
      return {
        kind: s.kind,
        error: false,
        title: l.stale_title,
        detail: fill(l.stale_detail, time(s.since)),
        short: fill(l.stale_short, time(s.since)),
        since: null,
        mark: 'clock',
      };
    case 'key_rejected':
      // The service's reason goes to the status page; the wall says what happened and where to look.
      return {
        kind: s.kind,
        error: true,
        title: l.key_rejected_title,
        detail: whereToLook(input.statusPlace, l, l.key_rejected_detail),
        short: fill(l.key_rejected_short, { message: '' }).replace(/[:\s]+$/, ''),
        since: null,
        mark: 'key',
      };
    case 'budget_exhausted': {
      const unknown = s.unknownCredits ?? 0;
      const detail = `${fill(l.budget_detail, time(s.until))}${unknown > 0 ? ` · ${fill(l.budget_unconfirmed, { n: unknown })}` : ''}`;
      return {
        kind: s.kind,
        error: true,
        title: l.budget_title,
        detail,
        short: fill(l.budget_short, time(s.until)),
        since: null,
        mark: 'hourglass',
      };
    }
    case 'credits_out':
      return {
        kind: s.kind,
        error: true,
        title: l.credits_out_title,
        detail: `${l.credits_out_detail} · ${fill(l.credits_out_next, time(s.until))}`,
        short: l.credits_out_short,
        since: fill(l.unreachable_detail, time(s.since)),
        mark: 'hourglass',
      };
    case 'unreachable':
    case 'service_error': {
      const retry = s.retryAt ?? null;
      const next =
        retry !== null ? fill(l.trying_again, time(retry)) : whereToLook(input.statusPlace, l, l.see_status_page);
      const shortNext = retry !== null ? ` · ${fill(l.trying_again_short, time(retry))}` : '';
      const title = s.kind === 'unreachable' ? l.unreachable_title : l[SERVICE_TITLES[s.problem]];
      const short = s.kind === 'unreachable' ? fill(l.unreachable_short, time(s.since)) : l.service_error_short;
      return {
        kind: s.kind,
        error: true,
        title,
        detail: next,
        short: short + shortNext,
        since: fill(l.unreachable_detail, time(s.since)),
        mark: s.kind === 'unreachable' ? 'offline' : 'cloud-error',
      };
    }
  }
}

/** The wall's title for each way the service failed once reached. */
const SERVICE_TITLES: Readonly<Record<ServiceProblem, LabelKey>> = {
  error: 'service_error_title',
  no_answer: 'service_no_answer_title',
  connection_lost: 'service_connection_lost_title',
  bad_answer: 'service_bad_answer_title',
  busy: 'service_busy_title',
  refused: 'service_refused_title',
};

/** The label of each OS reason a state file could not be saved for; any other: state_unwritable. */
const STATE_CAUSES: Readonly<Record<string, LabelKey>> = {
  EROFS: 'state_read_only',
  ENOSPC: 'state_full',
  EDQUOT: 'state_full',
  EACCES: 'state_denied',
  EPERM: 'state_denied',
  ENOTDIR: 'state_not_folder',
  EISDIR: 'state_in_the_way',
  EEXIST: 'state_in_the_way',
};

/** "Cannot save state" with its cause in plain words: "/var/lib/outfit-display is read-only". */
function storeProblemText(p: StoreProblem, locale: Locale): StatusText {
  const l = locale.labels;
  const cause = fill(l[STATE_CAUSES[storeProblemOsCode(p) ?? ''] ?? 'state_unwritable'], { dir: path.dirname(p.file) });
  return {
    kind: 'state_problem',
    error: true,
    title: l.state_problem_title,
    detail: `${cause} · ${l.state_no_purchase}`,
    short: `${l.state_problem_title}: ${cause}`,
    since: null,
    mark: 'hourglass',
  };
}

/** What a frame without an outfit says in place of "Waiting for the first outfit", or null: that. */
function withoutOutfitText(input: FrameInput, locale: Locale): StatusText | null {
  // A last good file that could not be read back is no reason to stop buying: the screen says so only with the time
  // the ledger records (notReadBack), else it waits for the first outfit as a first start does.
  if (input.storeProblem?.code === 'E_STATE_WRITE') return storeProblemText(input.storeProblem, locale);
  if (!input.notReadBack) return null;
  const l = locale.labels;
  const detail = fill(l.unread_detail, { time: formatTime(input.notReadBack, input.timezone, input.now, locale) });
  return {
    kind: 'not_read_back',
    error: false,
    title: l.unread_title,
    detail,
    short: l.unread_title,
    since: null,
    mark: 'clock',
  };
}

export function frameContent(input: FrameInput): FrameContent {
  const locale = input.locale ?? ENGLISH;
  const fetched = input.rec ? new Date(input.rec.fetched_at || (input.rec.generated_at ?? '')) : null;
  const validFetched = fetched && !Number.isNaN(fetched.getTime()) ? fetched : null;
  const stale = input.stale === true || input.status.kind === 'stale';
  const age = input.rec
    ? outfitAge({ made: validFetched, now: input.now, timeZone: input.timezone, stale })
    : ({ kind: 'current' } as const);
  // An outfit too old to show is not drawn at all: the frame is the screen without an outfit, saying why.
  const rec = age.kind === 'withdrawn' ? null : input.rec;
  const status =
    age.kind === 'withdrawn'
      ? withdrawnText(input, locale, age.days)
      : (statusText(input, locale) ?? (rec === null ? withoutOutfitText(input, locale) : null));
  return {
    name: input.displayName.trim(),
    updated:
      validFetched && rec && age.kind !== 'past_day'
        ? formatTime(validFetched, input.timezone, input.now, locale)
        : null,
    age: validFetched && rec && stale ? formatAge(input.now.getTime() - validFetched.getTime(), locale) : null,
    ageBadge: ageBadgeText(age, locale),
    headline: headlineText(age, locale),
    old: age.kind === 'stale' || age.kind === 'past_day',
    outfitAge: age,
    now: formatTime(input.now, input.timezone, input.now, locale),
    date: formatDate(input.now, input.timezone, locale),
    weather: rec?.weather ?? null,
    readings: rec ? readingsOf(rec.weather, locale) : [],
    feelsLike: rec ? feelsLike(rec.weather, locale) : null,
    feelsLikeShort: rec ? feelsLikeShort(rec.weather, locale) : null,
    outfit: rec ? rec.outfit.trim() : null,
    garments: rec ? (input.garments ?? readAnswer(rec).garments) : [],
    row: rec ? (input.garments ? garmentRow(input.garments, readAnswer(rec).demands) : readAnswer(rec).row) : [],
    condition: rec ? readAnswer(rec).condition : null,
    description: rec
      ? conditionWords({ condition: readAnswer(rec).condition, description: rec.weather.description, locale })
      : null,
    reasoning: rec?.reasoning?.trim() || null,
    alerts: rec ? frameAlerts(rec.weather.alerts, locale) : [],
    status,
    locale,
  };
}
