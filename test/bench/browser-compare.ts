import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { CLI } from './daemon-proc.js';
import { finish, sampleTree, track, type TreePeak } from './proc.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/chromium-args.js';

/**
 * The same 800x480 frame made two ways, each as a user runs it, timed from the first process's start to the
 * last one's exit, with the peak memory of the whole process tree:
 * - ours: `node dist/cli.js render --config F --input REC.json --out frame.png` (a 1-bit PNG, text rasterized at 1
 *   bit, never dithered);
 * - the headless-browser way of dashboard servers: Debian's chromium screenshots an equivalent HTML page, then
 *   ImageMagick dithers the screenshot to 1 bit (Floyd–Steinberg), as a 1-bit panel needs.
 */

/** ImageMagick 6 on Debian; /usr/bin first, so a wrapper earlier on PATH is not what gets timed. */
export const CONVERT = existsSync('/usr/bin/convert') ? '/usr/bin/convert' : 'convert';

export function browserToolsMissing(): string | null {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing (Debian: apt-get install chromium)`;
  if (CONVERT === 'convert') return '/usr/bin/convert is missing (Debian: apt-get install imagemagick)';
  return null;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The frame's content as an HTML page, laid out like our landscape layout, in the system's DejaVu fonts. */
export function browserPage(rec: StoredRecommendation, displayName: string, updated: string): string {
  // The bench draws a complete sample recommendation: every reading is there.
  const w = rec.weather as Required<StoredRecommendation['weather']>;
  const deg = w.temp_unit.replace(/[CF]$/, '');
  const arrows: Record<string, string> = { N: '↓', NE: '↙', E: '←', SE: '↖', S: '↑', SW: '↗', W: '→', NW: '↘' };
  const arrow = arrows[w.wind_dir] ?? '';
  return `<!doctype html>
<html><head><meta charset="utf-8"><style>
  html, body { margin: 0; width: 800px; height: 480px; overflow: hidden; background: #fff; color: #000; }
  body { font-family: 'DejaVu Sans', sans-serif; position: relative; }
  .cond { font-stretch: condensed; }
  header { display: flex; justify-content: space-between; align-items: baseline; padding: 4px 14px 0; height: 34px;
    border-bottom: 2px solid #000; box-sizing: border-box; }
  header .name { font-weight: bold; font-size: 21px; } header .upd { font-size: 17px; }
  .weather { display: flex; height: 134px; border-bottom: 2px solid #000; margin: 0 14px; }
  .icon { width: 120px; padding-top: 10px; }
  .temp { width: 250px; text-align: center; } .temp .t { font-weight: bold; font-size: 96px; line-height: 96px; margin-top: 8px; }
  .temp .f { font-size: 21px; }
  .readings { flex: 1; padding-left: 20px; padding-top: 10px; }
  .desc { font-weight: bold; font-size: 26px; margin-bottom: 6px; }
  .grid { display: grid; grid-template-columns: 1fr 1fr; row-gap: 2px; }
  .grid .l { font-size: 12px; } .grid .v { font-weight: bold; font-size: 20px; line-height: 20px; }
  .outfit { margin: 6px 14px 0; font-size: 38px; line-height: 1.2; }
  .rule { margin: 8px 14px 4px; width: 60px; border-top: 2px solid #000; }
  .reason { margin: 0 14px; font-size: 14px; line-height: 1.2; }
</style></head><body>
<header><span class="name">${esc(displayName)}</span><span class="upd">Updated ${esc(updated)}</span></header>
<div class="weather">
  <div class="icon"><svg width="110" height="100" viewBox="0 0 110 100">
    <g stroke="#000" stroke-width="4" stroke-linecap="round">
      <line x1="38" y1="6" x2="38" y2="16"/><line x1="10" y1="34" x2="20" y2="34"/><line x1="18" y1="14" x2="25" y2="21"/>
      <line x1="58" y1="14" x2="51" y2="21"/><line x1="18" y1="54" x2="25" y2="47"/>
    </g>
    <circle cx="38" cy="34" r="14" fill="#888" stroke="#000" stroke-width="3"/>
    <path d="M30 88 a16 16 0 0 1 4-31 a22 22 0 0 1 40-6 a18 18 0 0 1 26 20 a9 9 0 0 1-2 17 z" fill="#ccc" stroke="#000" stroke-width="4"/>
  </svg></div>
  <div class="temp"><div class="t">${Math.round(w.temp)}${esc(w.temp_unit)}</div><div class="f">Feels like ${Math.round(w.feels_like)}${esc(deg)}</div></div>
  <div class="readings"><div class="desc cond">${esc(w.description)}</div><div class="grid cond">
    <div><div class="l">Humidity</div><div class="v">${w.humidity_pct}%</div></div>
    <div><div class="l">Wind ${esc(w.wind_dir)}</div><div class="v">${arrow} ${w.wind_speed} ${esc(w.wind_speed_unit)}</div></div>
    <div><div class="l">Rain</div><div class="v">${w.rain_chance_pct}%</div></div>
    <div><div class="l">UV</div><div class="v">${w.uv_index}</div></div>
  </div></div>
</div>
<div class="outfit cond">${esc(rec.outfit)}</div>
<div class="rule"></div>
<div class="reason cond">${esc(rec.reasoning ?? '')}</div>
</body></html>
`;
}

export interface WayResult {
  ms: number;
  /** Null for a run timed without the sampler. */
  peak: TreePeak | null;
}

/**
 * How a run is watched: `time` alone, or `memory` (the process tree sampled every 20 ms). The sampler reads
 * /proc/<pid>/smaps_rollup, which walks the process's page tables under its memory-map lock while the process is
 * starting up and faulting pages in, and it runs on the same 2 cores: it added 30-40 ms (12-15 %) to a cold `render`.
 * So the times come from runs of their own.
 */
export type Watch = 'time' | 'memory';

/** Runs the steps one after the other; wall time of all, and with `memory` the highest peak of each step's tree. */
async function measured(steps: Array<[string, string[]]>, cwd: string, watch: Watch): Promise<WayResult> {
  const t0 = performance.now();
  const peak: TreePeak = { rssKb: 0, pssKb: 0, maxProcesses: 0, processes: 0 };
  for (const [cmd, args] of steps) {
    const child = track(cmd, args, { cwd, env: { PATH: process.env.PATH, HOME: cwd } });
    if (child.pid === undefined) throw new Error(`cannot start ${cmd}`);
    const sampler = watch === 'memory' ? sampleTree(child.pid, 20) : null;
    const r = await finish(child, t0, 60_000, cmd);
    const p = sampler?.stop();
    if (r.code !== 0)
      throw new Error(`${cmd} ${args.join(' ')} failed (${r.code ?? r.signal}): ${r.stderr.slice(-1500)}`);
    if (!p) continue;
    peak.rssKb = Math.max(peak.rssKb, p.rssKb);
    peak.pssKb = Math.max(peak.pssKb, p.pssKb);
    peak.maxProcesses = Math.max(peak.maxProcesses, p.maxProcesses);
    peak.processes += p.processes;
  }
  return { ms: performance.now() - t0, peak: watch === 'memory' ? peak : null };
}

export class BrowserCompare {
  readonly work = mkdtempSync(join(tmpdir(), 'outfit-bench-compare-'));
  readonly pagePath = join(this.work, 'frame.html');
  readonly recPath = join(this.work, 'rec.json');
  readonly configPath = join(this.work, 'config.yaml');
  #run = 0;

  constructor(rec: StoredRecommendation, displayName: string, updated: string) {
    writeFileSync(this.pagePath, browserPage(rec, displayName, updated));
    writeFileSync(this.recPath, JSON.stringify(rec));
    writeFileSync(
      this.configPath,
      [
        'api: { base_url: simulated }',
        'budget: { credits_per_day: 100 }',
        'timezone: Europe/Berlin',
        'displays:',
        `  - { id: hallway, name: ${JSON.stringify(displayName)}, lat: 52.52, lon: 13.405, panel: waveshare-7in5-v2 }`,
        '',
      ].join('\n'),
    );
  }

  /** `outfit-display render`, as a user runs it, on this Node or on `node` (another major's binary). */
  ours(watch: Watch, node = process.execPath): Promise<WayResult> {
    const out = join(this.work, 'ours.png');
    return measured(
      [[node, [CLI, 'render', '--config', this.configPath, '--input', this.recPath, '--out', out]]],
      this.work,
      watch,
    );
  }

  /** chromium --headless --screenshot, then ImageMagick to 1 bit; a fresh profile each run, as a cold start. */
  browser(watch: Watch): Promise<WayResult> {
    const profile = join(this.work, `profile-${this.#run++}`);
    const shot = join(this.work, 'shot.png');
    const out = join(this.work, 'browser.png');
    return measured(
      [
        [
          CHROMIUM,
          [
            ...CHROMIUM_ARGS,
            `--user-data-dir=${profile}`,
            '--window-size=800,480',
            '--hide-scrollbars',
            `--screenshot=${shot}`,
            pathToFileURL(this.pagePath).href,
          ],
        ],
        [
          CONVERT,
          [shot, '-colorspace', 'Gray', '-dither', 'FloydSteinberg', '-monochrome', '-define', 'png:bit-depth=1', out],
        ],
      ],
      this.work,
      watch,
    ).finally(() => rmSync(profile, { recursive: true, force: true }));
  }

  /**
   * Copies the last two 1-bit frames to `dir` as compare-ours.png and compare-browser.png, and writes
   * compare-zoom.png: the same strip of small text from each (ours above), at 3x, where the difference shows.
   */
  saveImages(dir: string, convert: string): string[] {
    mkdirSync(dir, { recursive: true });
    const [ours, browser, zoom] = ['compare-ours.png', 'compare-browser.png', 'compare-zoom.png'].map((f) =>
      join(dir, f),
    ) as [string, string, string];
    copyFileSync(join(this.work, 'ours.png'), ours);
    copyFileSync(join(this.work, 'browser.png'), browser);
    // The short rule and the first line of the reasoning: at y 422 in our landscape layout, 408 on the page above.
    const strip = (y: number): string[] => ['-crop', `330x28+0+${y}`, '+repage'];
    const r = spawnSync(convert, [
      ours,
      ...strip(422),
      '(',
      browser,
      ...strip(408),
      ')',
      '-append',
      '-scale',
      '300%',
      '-define',
      'png:bit-depth=1',
      zoom,
    ]);
    if (r.status !== 0) throw new Error(`convert (zoom) failed: ${r.stderr.toString()}`);
    return [ours, browser, zoom];
  }

  close(): void {
    rmSync(this.work, { recursive: true, force: true });
  }
}
