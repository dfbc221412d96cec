import type { HttpDeps } from './deps.js';
import type { FrameStore } from './frame-store.js';
import { displayHealth, DEFAULT_FRESHNESS_MS, statusWords, type DisplayHealth } from './health.js';
import { creditsLines } from '../publish/credits-view.js';
import { stateProblemText } from '../mqtt/state-payload.js';
import type { StatusPageDisplay, StatusPageModel } from './status-page.js';
import { zonedFormat } from '../time/zoned-format.js';

/** What the status page and /healthz know about the displays, gathered from the frames and the providers. */

function formatter(tz: string): Intl.DateTimeFormat {
  return zonedFormat('en-GB', { timeZone: tz, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
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

export interface DisplayView {
  health: DisplayHealth;
  page: StatusPageDisplay;
}

export function displayViews(deps: HttpDeps, frames: FrameStore, scrub: (t: string) => string): DisplayView[] {
  const now = deps.now();
  // The shared state problem (the ledger), asked once for all displays.
  const shared = deps.budget?.()?.stateProblem;
  return deps.displays.map((display) => {
    const entry = frames.get(display.id);
    const snap = deps.snapshot?.(display.id) ?? null;
    const status = snap?.status ?? entry?.status ?? null;
    const rec = entry?.rec ?? snap?.rec ?? null;
    const lastSuccessAt = snap?.lastSuccessAt ?? rec?.fetched_at ?? null;
    const stateProblem = stateProblemText(snap?.stateProblem ?? shared);
    const health = displayHealth(
      {
        id: display.id,
        status,
        hasFrame: entry !== null,
        lastSuccessAt,
        freshnessMs: deps.freshnessMs?.(display.id) ?? DEFAULT_FRESHNESS_MS,
        stateProblem,
      },
      now,
    );
    health.reason = scrub(health.reason);
    const next = deps.nextUpdateAt?.(display.id) ?? entry?.nextUpdateAt ?? null;
    const err = snap?.lastError ?? null;
    const w = rec?.weather;
    const page: StatusPageDisplay = {
      id: display.id,
      name: display.name ?? display.id,
      panel: display.panel,
      frameSrc: entry ? `/displays/${encodeURIComponent(display.id)}/frame.png?v=${entry.frame.hash.slice(0, 12)}` : null,
      width: entry?.frame.width ?? null,
      height: entry?.frame.height ?? null,
      status: status?.kind ?? 'none',
      statusText: scrub(status === null ? 'no frame yet' : statusWords(status)),
      healthy: health.ok,
      nextUpdate: formatWhen(next, deps.timezone, now) ?? 'none planned',
      lastSuccess: formatWhen(lastSuccessAt, deps.timezone, now) ?? 'never',
      lastError: err === null ? null : scrub(`${err.code}: ${err.message} (${formatWhen(err.at, deps.timezone, now) ?? err.at})`),
      outfit: rec ? scrub(rec.outfit) : null,
      // A reading the service left out shows as "—", as on the frame.
      weather: w
        ? scrub(`${w.temp === undefined ? '—' : `${w.temp} ${w.temp_unit ?? ''}`.trim()}, ${w.description ?? '—'}, rain ${w.rain_chance_pct === undefined ? '—' : `${w.rain_chance_pct}%`}`)
        : null,
      canRefresh: deps.refresh !== undefined && !deps.refreshUnavailable,
      refreshNote: deps.refreshUnavailable ?? snap?.refreshRefused?.text ?? null,
      stateProblem: stateProblem === null ? null : scrub(stateProblem),
    };
    return { health, page };
  });
}

function finite(n: number | null | undefined): number | null {
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

export function statusPageModel(deps: HttpDeps, views: DisplayView[], notice: string | null, scrub: (t: string) => string): StatusPageModel {
  const now = deps.now();
  const b = deps.budget?.() ?? null;
  const spentToday = finite(b?.spentToday);
  const spentMonth = finite(b?.spentMonth);
  const leftToday = finite(b?.leftToday);
  const leftMonth = finite(b?.leftMonth);
  return {
    generatedAt: formatter(deps.timezone).format(new Date(now)),
    timezone: deps.timezone,
    displays: views.map((v) => v.page),
    budget: b
      ? {
          spentToday,
          limitToday: deps.budgetLimits?.perDay ?? (spentToday !== null && leftToday !== null ? spentToday + leftToday : null),
          spentMonth,
          limitMonth: deps.budgetLimits?.perMonth ?? (spentMonth !== null && leftMonth !== null ? spentMonth + leftMonth : null),
          rateRemaining: finite(b.rateRemaining),
          warnings: [...(b.warnings ?? [])].map((w) => scrub(String(w))),
          credits: creditsLines(b, (d) => formatter(deps.timezone).format(d)),
        }
      : null,
    notice,
  };
}
