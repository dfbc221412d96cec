import { chromium, type Browser, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { renderFrame } from '../../src/render/frame.js';
import type { PanelProfile } from '../../src/panels/panels.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/chromium-args.js';
import type { Bench } from './bench.js';
import { browserPage, CONVERT } from './browser-compare.js';
import { descendants, median, memoryOf, track } from './proc.js';
import { sampleInput } from '../fixtures/samples.js';

/**
 * The warm comparison: both ways already running, one frame each.
 * - ours: `renderFrame` of the normal sample in this process (layout, quantize, PNG), as the daemon does each cycle;
 * - the headless-browser way as a dashboard server keeps it: one Chromium page held open through playwright-core
 *   (Debian's /usr/bin/chromium, never a download); per frame the page gets the frame's HTML (setContent), is
 *   screenshot, and the screenshot is dithered to 1 bit by ImageMagick with the same arguments as the cold way,
 *   through stdin and stdout (no temporary files). The screenshot alone is timed too: no dither in any process can
 *   make the browser's frame faster than that, so it bounds an in-process dither from below.
 */

/** The cold comparison's dither (browser-compare.ts), from stdin to stdout. */
const DITHER = [
  'png:-',
  '-colorspace',
  'Gray',
  '-dither',
  'FloydSteinberg',
  '-monochrome',
  '-define',
  'png:bit-depth=1',
  'png:-',
];

export interface BrowserFrame {
  /** setContent + screenshot + dither. */
  ms: number;
  /** setContent + screenshot only. */
  shotMs: number;
  png: Buffer;
}

/** `convert` as a tracked process: `input` on stdin, the image from stdout. */
function convertPipe(input: Buffer): Promise<Buffer> {
  const child = track(CONVERT, DITHER, { stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let err = '';
  child.stdout?.on('data', (d: Buffer) => out.push(d));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  child.stdin?.end(input);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`convert failed (${code}): ${err.slice(-1500)}`)),
    );
  });
}

export class WarmBrowser {
  readonly #browser: Browser;
  readonly #page: Page;

  private constructor(browser: Browser, page: Page) {
    this.#browser = browser;
    this.#page = page;
  }

  static async start(width: number, height: number): Promise<WarmBrowser> {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      // playwright-core adds its own headless flags.
      args: CHROMIUM_ARGS.filter((a) => a !== '--headless'),
    });
    const page = await browser.newPage({ viewport: { width, height } });
    return new WarmBrowser(browser, page);
  }

  async frame(html: string): Promise<BrowserFrame> {
    const t0 = performance.now();
    await this.#page.setContent(html);
    const shot = await this.#page.screenshot({ type: 'png' });
    const shotMs = performance.now() - t0;
    const png = await convertPipe(shot);
    return { ms: performance.now() - t0, shotMs, png };
  }

  /** Chromium's processes: this process's descendants (the bench starts no other while the browser is up). */
  memory(): { rssKb: number; pssKb: number; processes: number } {
    return memoryOf(descendants(process.pid).filter((p) => p !== process.pid));
  }

  async close(): Promise<void> {
    await this.#browser.close();
  }
}

export interface WarmCompareOptions {
  /** The 1-bit 800x480 panel both frames are for. */
  panel: PanelProfile;
  /** The recommendation of the normal sample, for the browser's page. */
  rec: StoredRecommendation;
  /** The header's "Updated" time, as our frame shows it. */
  updated: string;
  runs: number;
}

/** Bench lines: ours warm, the warm browser (interleaved run by run, the order flipped every other run), the ratios. */
export function warmBrowserBenches(o: WarmCompareOptions): Bench[] {
  const ours: number[] = [];
  const browser: BrowserFrame[] = [];
  const chromiumKb: number[] = [];
  let chromiumProcesses = 0;
  let warm: WarmBrowser | null = null;
  const html = (): string => browserPage(o.rec, 'Hallway', o.updated);
  const oursOnce = async (): Promise<number> => {
    const t0 = performance.now();
    await renderFrame(sampleInput('normal'), o.panel, { rotation: 0 });
    return performance.now() - t0;
  };
  const pair = async (): Promise<void> => {
    warm ??= await WarmBrowser.start(o.panel.width, o.panel.height);
    const flip = ours.length % 2 === 1;
    const b = flip ? await warm.frame(html()) : null;
    ours.push(await oursOnce());
    browser.push(b ?? (await warm.frame(html())));
    const m = warm.memory();
    chromiumKb.push(m.pssKb);
    chromiumProcesses = m.processes;
  };
  // The warmup's pairs are in the arrays too: only the measured runs count.
  const med = (f: (b: BrowserFrame) => number): number => median(browser.slice(-o.runs).map(f));
  return [
    {
      name: 'warm: ours, renderFrame in this process',
      group: 'browser warm',
      unit: 'ms',
      runs: o.runs,
      // The browser's first pages and this process's first frames pay for compiling and caches.
      warmup: 3,
      async measure() {
        await pair();
        return ours[ours.length - 1]!;
      },
    },
    {
      name: 'warm: chromium page, setContent+screenshot+convert',
      group: 'browser warm',
      unit: 'ms',
      runs: 1,
      label: `[median of the ${o.runs} runs above]`,
      measure: () => Promise.resolve(med((b) => b.ms)),
      note() {
        const runsOf = <T>(xs: T[]): T[] => xs.slice(-o.runs);
        const b = runsOf(browser);
        const oursMs = median(runsOf(ours));
        const total = median(b.map((x) => x.ms));
        const shot = median(b.map((x) => x.shotMs));
        const last = PNG.sync.read(b[b.length - 1]!.png);
        if (last.width !== o.panel.width || last.height !== o.panel.height)
          throw new Error(`the browser's frame is ${last.width}x${last.height}`);
        return (
          `  (screenshot alone ${shot.toFixed(1)} ms: a floor for any in-process dither; chromium's ` +
          `${chromiumProcesses} processes hold ${(median(runsOf(chromiumKb)) / 1024).toFixed(0)} MB PSS)\n` +
          `warm chromium+ImageMagick / warm outfit-display: ${(total / oursMs).toFixed(1)}x time ` +
          `(${(shot / oursMs).toFixed(1)}x against the screenshot alone)  [medians of ${b.length} runs each, interleaved]`
        );
      },
      async cleanup() {
        await warm?.close();
        warm = null;
      },
    },
  ];
}
