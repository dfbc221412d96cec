/**
 * Every label the frame shows, as templates: `{name}` is replaced by a value (a time, a number, an age). The
 * service's own texts (outfit, reasoning, alerts) are never translated; these are ours only. The weather's description
 * is shown in our words for its condition on a frame not in English (condition_*), as sent where none is known.
 * Keys are snake_case because a user's locale file (locale-file.ts) writes them in YAML exactly so.
 */
export interface Labels {
  /** `{temp}`: "Feels like 1°". */
  feels_like: string;
  /** `{temp}`: the same in a few letters, where the panel's weather column is too narrow for it: "Feels 1°". */
  feels_like_short: string;
  /** `{time}`: the top band's "Updated 07:30". */
  updated: string;
  /** `{time}`, `{age}`: "Updated 07:30, 2 h 5 min ago" (stale data). */
  updated_ago: string;
  /** The inverted badge of stale data: "STALE". */
  stale_badge: string;
  /** `{n}`: the alerts not shown, "+2 more". */
  more_alerts: string;
  /** In the outfit's place when the service sent no text that can be drawn. */
  no_outfit: string;
  /** An alert without any text of its own. */
  weather_alert: string;
  /**
   * `{script}`: in the outfit's place when it is written in a script no font of the display has ("Japanese", in the
   * display's language): "This outfit is in a script this display has no font for (Japanese)".
   */
  script_no_font: string;
  /** `{script}`: the same, shorter, in an alert's place (one line): "Weather alert in Japanese: no font here". */
  alert_script_no_font: string;
  /** `{value}`: "UV 3". */
  uv: string;
  /** `{n}`: a percentage, "71%" or "71 %" as the language writes it. */
  percent: string;
  /** The error screen before anything was fetched. */
  waiting_title: string;
  waiting_detail: string;
  /**
   * In the waiting screen's place when the answer last bought could not be read back at a start (its slot is paid
   * and not bought again). `{time}`: when it was bought.
   */
  unread_title: string;
  unread_detail: string;
  /** In the waiting screen's place while the state cannot be saved (nothing is bought until it can). */
  state_problem_title: string;
  /** `{dir}`: the state folder, on a read-only disk (EROFS). */
  state_read_only: string;
  /** `{dir}`: its disk is full (ENOSPC, EDQUOT). */
  state_full: string;
  /** `{dir}`: the daemon's user may not write it (EACCES, EPERM). */
  state_denied: string;
  /** `{dir}`: a file stands where a folder of the path should be (ENOTDIR). */
  state_not_folder: string;
  /** `{dir}`: a folder or file stands where the state file goes (EISDIR, EEXIST). */
  state_in_the_way: string;
  /** `{dir}`: any other reason. */
  state_unwritable: string;
  /** What it means: no purchase while the state cannot be saved. */
  state_no_purchase: string;
  stale_title: string;
  /** `{time}` */
  stale_detail: string;
  /** `{time}`: small panels. */
  stale_short: string;
  key_rejected_title: string;
  /** When the service gave no reason. */
  key_rejected_detail: string;
  /** `{message}`: the service's reason, as sent. */
  key_rejected_short: string;
  budget_title: string;
  /** `{time}` */
  budget_detail: string;
  /** `{n}`: credits sent without a usable answer. */
  budget_unconfirmed: string;
  /** `{time}` */
  budget_short: string;
  credits_out_title: string;
  credits_out_detail: string;
  /** `{time}` */
  credits_out_next: string;
  credits_out_short: string;
  unreachable_title: string;
  /** `{time}` */
  unreachable_detail: string;
  /** `{time}` */
  unreachable_short: string;
  /** `{age}`: the badge of an outfit out of date, "3 h old" (age_minutes or age_hours). */
  age_old: string;
  /**
   * `{day}`: once the badge of an outfit a day old or more ("since Mon"). No longer drawn (a weekday is left for the
   * reader to work out: outfit_yesterday and outfit_days_ago say it); kept so a locale file that has it still loads.
   */
  since_day: string;
  /** The headline of an outfit made for yesterday (the display's time zone): "Yesterday's outfit". */
  outfit_yesterday: string;
  /** `{n}`, plural forms (plural.ts): the headline of an outfit made for an earlier day, "Outfit from 2 days ago". */
  outfit_days_ago: string;
  /** The screen of an outfit too old to show (outfit-age.ts): "No current outfit". */
  no_current_outfit: string;
  /** `{n}`, plural forms (plural.ts): what that screen says of the last one, "last one from 4 days ago". */
  last_outfit_days_ago: string;
  /** `{time}`: what happens next after a failed purchase, "trying again at 07:12". */
  trying_again: string;
  /** `{time}`: the same on small panels, "retry at 07:12": never "again 07:12", which reads as "failed again at". */
  trying_again_short: string;
  /** Where the detail is when no retry time is known, and the status page's address is not. */
  see_status_page: string;
  /** `{url}`: the same with the status page's address (http.public_url or the listen address), "status page: http://pi.local:8321". */
  status_page_at: string;
  /** The same without a status page (no `http` section): the log has the detail. */
  see_log: string;
  /** The service was reached and answered with an error (a 5xx). */
  service_error_title: string;
  /** Small panels: any failure once the service was reached. */
  service_error_short: string;
  /** No answer came in time (E_TIMEOUT). */
  service_no_answer_title: string;
  /** The connection broke after the request was sent (E_NETWORK). */
  service_connection_lost_title: string;
  /** An answer came that cannot be read (E_BAD_RESPONSE). */
  service_bad_answer_title: string;
  /** Too many requests: the service asked us to wait (E_RATE_LIMITED). */
  service_busy_title: string;
  /** Any other refusal of the request (a 4xx). */
  service_refused_title: string;
  /** `{n}`: "40 min". */
  age_minutes: string;
  /** `{n}`: "3 h". */
  age_hours: string;
  /** `{h}`, `{m}`: "2 h 5 min". */
  age_hours_minutes: string;
  /** `{n}`: "3 d". */
  age_days: string;
  /**
   * The weather condition (src/domain/condition.ts) in words, in place of the service's English description on a
   * frame in another language: "Ressenti 1° · Partiellement nuageux", not "· Partly cloudy". Day and night differ
   * only where the words do ("Sunny" by day, "Clear" at night).
   */
  condition_clear_day: string;
  condition_clear_night: string;
  /** Partly cloudy, by day or night. */
  condition_partly: string;
  condition_cloudy: string;
  condition_fog: string;
  condition_drizzle: string;
  condition_rain: string;
  condition_thunder: string;
  condition_snow: string;
  condition_sleet: string;
  condition_wind: string;
  /** Tornado, hurricane, tropical storm. */
  condition_storm: string;
  /**
   * What the description says beyond its condition (src/domain/condition-parts.ts), so "Light rain" is not just
   * "Rain": rain, drizzle, snow and sleet said light or heavy, rain and snow in showers, severe thunderstorms. Written
   * as they begin a line; the second of two parts is joined by `condition_and`.
   */
  condition_rain_light: string;
  condition_rain_heavy: string;
  /** Rain showers. */
  condition_showers: string;
  condition_showers_light: string;
  condition_showers_heavy: string;
  condition_drizzle_light: string;
  condition_drizzle_heavy: string;
  condition_snow_light: string;
  condition_snow_heavy: string;
  condition_snow_showers: string;
  condition_snow_showers_light: string;
  condition_snow_showers_heavy: string;
  condition_sleet_light: string;
  condition_sleet_heavy: string;
  condition_thunder_heavy: string;
  /** `{a}`, `{b}`: two parts of one description, "Heavy rain and thunderstorms". */
  condition_and: string;
  /** `{name}`: on a household frame, before the garments a person adds at their own warmth: "+ for Anna". */
  person_additions: string;
  /** Beside the name of a person who is not at home (their last outfit stays, as last known): "Out". */
  person_away: string;
  /** In the outfit's place for a person on a household frame with no answer yet. */
  person_no_outfit: string;
}

export type LabelKey = keyof Labels;

/**
 * Placeholders a label took before its English words dropped them: a user's locale file written for the old words
 * is still accepted (the value is still given; the frame shows it where the file puts it).
 */
export const RETIRED_PLACEHOLDERS: Readonly<Partial<Record<LabelKey, readonly string[]>>> = {
  key_rejected_short: ['message'],
  unreachable_short: ['time'],
};

/** A label with its placeholders filled: fill('Updated {time}', { time: '07:30' }). Unknown names stay as written. */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{([a-z]+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The placeholder names a template uses: "{h} h {m} min" → ["h", "m"]. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/\{([a-z]+)\}/g)].map((m) => m[1]!);
}
