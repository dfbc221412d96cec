import type { HttpDeps } from './deps.js';
import type { DisplayViewSource } from '../state/display-views.js';
import type { BudgetStatus } from '../budget/governor-types.js';
import { displayHealth, statusWords, type DisplayHealth } from './health.js';
import { creditsLines } from '../state/credits-view.js';
import type { StatusPageDisplay, StatusPageModel } from './status-page.js';
import { zonedFormat } from '../time/zoned-format.js';

/** What the status page and /healthz show of the displays: each from its one view (display-views.ts). */

function formatter(tz: string): Intl.DateTimeFormat {
  return zonedFormat('en-GB', {
    timeZone: tz,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
}

function relative(ms: number): string {
  const abs = Math.abs(ms);
  const min = Math.round(abs / 60_000);
  const words = min < 1 ? 'less than a minute' : min < 90 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`;
  return ms >= 0 ? `in ${words}` : `${words} ago`;
}

/** "Sat 31 Jan, 08:30 (in 25 min)" in the configured zone. */
export function formatWhen(at: Date | string | null, tz: string, now: number): string | null {
  if (at === null) return null;
  const d = at instanceof Date ? at : new Date(at);
  if (!Number.isFinite(d.getTime())) return null;
  return `${formatter(tz).format(d)} (${relative(d.getTime() - now)})`;
}

/** One display as /healthz and the status page show it. */
export interface DisplayRow {
  health: DisplayHealth;
  page: StatusPageDisplay;
}

export function displayRows(deps: HttpDeps, views: DisplayViewSource, scrub: (t: string) => string): DisplayRow[] {
  const now = deps.clock.now();
  return deps.displays.flatMap((display) => {
    const v = views.view(display.id);
    if (v === null) return [];
    const entry = v.kind === 'shown' ? v : null;
    const status = entry?.status ?? null;
    const { rec, lastSuccessAt } = v;
    // Every problem through the redactor once: its line and its words are what the page and /healthz show.
    const problems = v.problems.map((p) => ({ ...p, text: scrub(p.text), health: scrub(p.health) }));
    const health = displayHealth({
      id: display.id,
      status,
      hasFrame: entry !== null,
      hasOutfit: rec !== null,
      nextUpdateAt: v.nextUpdateAt,
      lastSuccessAt,
      staleSince: v.staleSince,
      problems,
      attached: v.panel !== null,
    });
    health.reason = scrub(health.reason);
    const err = v.lastError;
    const w = rec?.weather;
    const page: StatusPageDisplay = {
      id: display.id,
      name: display.name ?? display.id,
      panel: display.panel,
      frameSrc: entry
        ? `/displays/${encodeURIComponent(display.id)}/frame.png?v=${entry.frame.hash.slice(0, 12)}`
        : null,
      width: entry?.frame.width ?? null,
      height: entry?.frame.height ?? null,
      status: status?.kind ?? 'none',
      statusText: scrub(status === null ? 'no frame yet' : statusWords(status)),
      healthy: health.ok,
      nextUpdate: formatWhen(v.nextUpdateAt, deps.timezone, now) ?? 'none planned',
      lastSuccess: formatWhen(lastSuccessAt, deps.timezone, now) ?? 'never',
      lastError:
        err === null
          ? null
          : scrub(`${err.code}: ${err.message} (${formatWhen(err.at, deps.timezone, now) ?? err.at})`),
      outfit: rec ? scrub(rec.outfit) : null,
      // A reading the service left out shows as "—", as on the frame.
      weather: w
        ? scrub(
            `${w.temp === undefined ? '—' : `${w.temp} ${w.temp_unit ?? ''}`.trim()}, ${w.description ?? '—'}, rain ${w.rain_chance_pct === undefined ? '—' : `${w.rain_chance_pct}%`}`,
          )
        : null,
      canRefresh: deps.refresh !== undefined && !deps.refreshUnavailable,
      refreshNote: deps.refreshUnavailable ?? v.refreshRefused?.text ?? null,
      problems: problems.map((p) => ({ label: p.label, text: p.text, note: p.note })),
      ...(v.panel !== null && {
        attached: { lastRefresh: formatWhen(v.panel.lastRefreshAt, deps.timezone, now) ?? 'never' },
      }),
    };
    return [{ health, page }];
  });
}

function finite(n: number | null | undefined): number | null {
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

export function statusPageModel(
  deps: HttpDeps,
  b: BudgetStatus | null,
  rows: DisplayRow[],
  notice: string | null,
  scrub: (t: string) => string,
): StatusPageModel {
  const now = deps.clock.now();
  const spentToday = finite(b?.spentToday);
  const spentMonth = finite(b?.spentMonth);
  const leftToday = finite(b?.leftToday);
  const leftMonth = finite(b?.leftMonth);
  return {
    generatedAt: formatter(deps.timezone).format(new Date(now)),
    timezone: deps.timezone,
    displays: rows.map((r) => r.page),
    budget: b
      ? {
          spentToday,
          limitToday:
            deps.budgetLimits?.perDay ?? (spentToday !== null && leftToday !== null ? spentToday + leftToday : null),
          spentMonth,
          limitMonth:
            deps.budgetLimits?.perMonth ?? (spentMonth !== null && leftMonth !== null ? spentMonth + leftMonth : null),
          rateRemaining: finite(b.rateRemaining),
          warnings: [...(b.warnings ?? [])].map((w) => scrub(String(w))),
          credits: creditsLines(b, (d) => formatter(deps.timezone).format(d)),
        }
      : null,
    notice,
  };
}
