/**
 * Every label the frame shows, as templates: `{name}` is replaced by a value (a time, a number, an age). The
 * service's own texts (outfit, reasoning, description, alerts) are never translated; these are ours only.
 * Keys are snake_case because a user's locale file (locale-file.ts) writes them in YAML exactly so.
 */
export interface Labels {
  /** `{temp}`: "Feels like 1°". */
  feels_like: string;
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
  /** `{value}`: "UV 3". */
  uv: string;
  /** `{n}`: a percentage, "71%" or "71 %" as the language writes it. */
  percent: string;
  /** The error screen before anything was fetched. */
  waiting_title: string;
  waiting_detail: string;
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
  /** `{n}`: "40 min". */
  age_minutes: string;
  /** `{n}`: "3 h". */
  age_hours: string;
  /** `{h}`, `{m}`: "2 h 5 min". */
  age_hours_minutes: string;
  /** `{n}`: "3 d". */
  age_days: string;
}

export type LabelKey = keyof Labels;

/** A label with its placeholders filled: fill('Updated {time}', { time: '07:30' }). Unknown names stay as written. */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{([a-z]+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The placeholder names a template uses: "{h} h {m} min" → ["h", "m"]. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/\{([a-z]+)\}/g)].map((m) => m[1]!);
}
