import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { drawText, measure, type FontId } from '../../src/render/text/fonts.js';
import { TextLayer } from '../../src/render/text/text-layer.js';
import { packageRoot } from '../../src/shared/package-root.js';

/**
 * Our small text beside FreeType's hinted 1-bit rendering of the same DejaVu file at the same size, and a
 * reader that is not our code: tesseract. Shared by test/render/small-text-reader.sys.test.ts and the
 * gallery's side-by-side zooms. Both tools are Debian's (.ci/setup --tests installs them); a missing one is an
 * error that says what to install, never a silent skip.
 */

/** A line of 1-bit text: `bits` row-major, 1 = ink, the baseline `baseline` rows from the top. */
export interface LineBitmap {
  width: number;
  height: number;
  baseline: number;
  bits: Uint8Array;
}

/** Words easily misread on the 2.13", 2.9" and 4.2", then lines of the kind a frame sets small. */
export const PHRASES = [
  'warm',
  'and',
  'km/h',
  'Hallway',
  'Light',
  '8:30 AM',
  'overall',
  'rain and',
  'half-sleeve',
  'feels like',
  'Wind 22 km/h',
  'Take a light jacket',
  'Updated 06:58',
  'gloves and scarf',
  'Severe storm warning',
];

const TTF: Record<FontId, string> = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  condensed: 'DejaVuSansCondensed.ttf',
  'condensed-bold': 'DejaVuSansCondensed-Bold.ttf',
};

/** The TrueType file of a face: the one font-stack.ts reads. */
export function fontFile(font: FontId): string {
  return createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${TTF[font]}`);
}

/** Our rendering of `text` at `size` px from x = 1, as a frame's line of words is drawn. */
export function oursLine(font: FontId, size: number, text: string): LineBitmap {
  const baseline = Math.ceil(size * 1.1) + 1;
  const height = baseline + Math.ceil(size * 0.3) + 2;
  const width = Math.ceil(size * text.length * 1.2) + 4;
  const layer = new TextLayer(width, height, [
    [0, 0, 0],
    [255, 255, 255],
  ]);
  // Word by word at the offsets text-fit.ts gives them, as the layouts draw a line (layout/blocks.ts).
  const space = measure(font, size, ' ');
  let x = 1;
  for (const word of text.split(' ')) {
    drawText(layer, font, size, word, x, baseline, 'rgb(0,0,0)');
    x += measure(font, size, word) + space;
  }
  const bits = Uint8Array.from(layer.index, (v) => (v === 0 ? 1 : 0));
  return { width, height, baseline, bits };
}

/** FreeType's hinted 1-bit rendering (test/tools/freetype-mono.py) of each of `texts`, and FreeType's version. */
export function freetypeLines(
  font: FontId,
  size: number,
  texts: readonly string[],
): { version: string; lines: LineBitmap[] } {
  const script = join(packageRoot(), 'test', 'tools', 'freetype-mono.py');
  const run = spawnSync('/usr/bin/python3', [script], {
    input: JSON.stringify({ font: fontFile(font), size, lines: texts }),
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (run.error || run.status !== 0) {
    throw new Error(
      `FreeType's reference rendering needs Debian's /usr/bin/python3 with python3-pil (.ci/setup --tests): ${run.error?.message ?? run.stderr.trim()}`,
    );
  }
  const out = JSON.parse(run.stdout) as {
    freetype: string;
    lines: { width: number; height: number; baseline: number; rows: string[] }[];
  };
  const lines = out.lines.map((l) => ({
    width: l.width,
    height: l.height,
    baseline: l.baseline,
    bits: Uint8Array.from(l.rows.join(''), (c) => (c === '1' ? 1 : 0)),
  }));
  return { version: out.freetype, lines };
}

/** A PNG of lines stacked with `gap` px of ground between them, each pixel a square of `zoom` px, ink black. */
export function linesPng(lines: readonly LineBitmap[], zoom = 4, gap = 4): Buffer {
  const w = Math.max(...lines.map((l) => l.width)) * zoom;
  const h = (lines.reduce((s, l) => s + l.height, 0) + gap * (lines.length - 1)) * zoom;
  const png = new PNG({ width: w, height: h, colorType: 0, inputHasAlpha: false });
  png.data.fill(255);
  let top = 0;
  for (const l of lines) {
    for (let y = 0; y < l.height * zoom; y++) {
      for (let x = 0; x < l.width * zoom; x++) {
        if (!l.bits[Math.floor(y / zoom) * l.width + Math.floor(x / zoom)]) continue;
        const i = ((top * zoom + y) * w + x) * 4;
        png.data[i] = png.data[i + 1] = png.data[i + 2] = 0;
      }
    }
    top += l.height + gap;
  }
  return PNG.sync.write(png, { colorType: 0 });
}

/**
 * Tesseract's reading of each line, enlarged `zoom` times by nearest neighbour with a margin of ground (it reads
 * text of about 20 px and up): one process for all of them (a list of images), each read as one line (psm 7).
 */
export function ocrLines(lines: readonly LineBitmap[], zoom = 4): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'small-text-ocr-'));
  try {
    const files = lines.map((l, i) => {
      const pad = 8;
      const framed: LineBitmap = {
        width: l.width + 2 * pad,
        height: l.height + 2 * pad,
        baseline: l.baseline + pad,
        bits: new Uint8Array((l.width + 2 * pad) * (l.height + 2 * pad)),
      };
      for (let y = 0; y < l.height; y++)
        framed.bits.set(l.bits.subarray(y * l.width, (y + 1) * l.width), (y + pad) * framed.width + pad);
      const f = join(dir, `${i}.png`);
      writeFileSync(f, linesPng([framed], zoom));
      return f;
    });
    writeFileSync(join(dir, 'list.txt'), files.join('\n') + '\n');
    const run = spawnSync('tesseract', [join(dir, 'list.txt'), 'stdout', '--psm', '7', '-l', 'eng', '--dpi', '300'], {
      encoding: 'utf8',
      maxBuffer: 16 << 20,
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    });
    if (run.error || run.status !== 0)
      throw new Error(
        `the OCR check needs Debian's tesseract-ocr and tesseract-ocr-eng (.ci/setup --tests): ${run.error?.message ?? run.stderr.trim()}`,
      );
    // One page a form feed; each page's line ends in a newline.
    const pages = run.stdout.split('\f').map((p) => p.trim());
    return lines.map((_, i) => pages[i] ?? '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Levenshtein distance of two strings, by code unit. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** Share of the expected characters read right: 1 - edit distance / length, at least 0. */
export function charAccuracy(expected: string, read: string): number {
  return Math.max(0, 1 - editDistance(expected, read) / expected.length);
}

/** The columns of a line that hold ink. */
function inkColumns(l: LineBitmap): boolean[] {
  return Array.from({ length: l.width }, (_, x) => {
    for (let y = 0; y < l.height; y++) if (l.bits[y * l.width + x]) return true;
    return false;
  });
}

/** The runs of blank columns between the first and last ink column: [first blank column, length]. */
export function gapRuns(l: LineBitmap): [number, number][] {
  const ink = inkColumns(l);
  const first = ink.indexOf(true);
  const last = ink.lastIndexOf(true);
  const runs: [number, number][] = [];
  for (let x = first; x <= last; x++) {
    if (ink[x]) continue;
    const from = x;
    while (!ink[x]) x++;
    runs.push([from, x - from]);
  }
  return runs;
}

/**
 * A line's word gaps (the blank columns right after each word before a space, found from the line drawn up to
 * that word, `prefixes`) and its widest gap inside a word, px.
 */
export function wordAndLetterGaps(
  line: LineBitmap,
  prefixes: readonly LineBitmap[],
): { word: number[]; letter: number } {
  const runs = gapRuns(line);
  const starts = prefixes.map((p) => inkColumns(p).lastIndexOf(true) + 1);
  const word = starts.map((s) => runs.find(([from]) => from === s)?.[1] ?? 0);
  const letter = Math.max(0, ...runs.filter(([from]) => !starts.includes(from)).map(([, n]) => n));
  return { word, letter };
}

/** The width of the first run of ink in the row `up` px above the baseline: a stem's width in l, i or n. */
export function stemWidth(l: LineBitmap, up: number): number {
  const row = l.bits.subarray((l.baseline - up) * l.width, (l.baseline - up + 1) * l.width);
  const from = row.indexOf(1);
  if (from < 0) return 0;
  let x = from;
  while (row[x]) x++;
  return x - from;
}

/** The lines of the gallery's side-by-side images: those words, as a frame would set them. */
export const SAMPLE_LINES = [
  'warm and km/h, Hallway Light 8:30 AM',
  'overall rain and half-sleeve, feels like',
  'Severe storm warning. Updated 06:58',
];
/** The faces the side-by-side images show, each ours then FreeType's. */
const SAMPLE_FONTS: FontId[] = ['regular', 'bold', 'condensed'];

/** A rule across `width` px: between ours and FreeType's in a side-by-side image. */
function rule(width: number): LineBitmap {
  return { width, height: 1, baseline: 1, bits: new Uint8Array(width).fill(1) };
}

/**
 * The gallery's side-by-side of one size at 4x: for each of SAMPLE_FONTS, SAMPLE_LINES drawn by us, a rule, then
 * the same lines by FreeType's hinted 1-bit rendering, and a double rule before the next face.
 */
export function sideBySidePng(size: number): Buffer {
  const blocks = SAMPLE_FONTS.map((font) => ({
    ours: SAMPLE_LINES.map((t) => oursLine(font, size, t)),
    freetype: freetypeLines(font, size, SAMPLE_LINES).lines,
  }));
  const width = Math.max(...blocks.flatMap((b) => [...b.ours, ...b.freetype].map((l) => l.width)));
  const lines = blocks.flatMap((b, i) => [
    ...(i > 0 ? [rule(width), rule(width)] : []),
    ...b.ours,
    rule(width),
    ...b.freetype,
  ]);
  return linesPng(lines, 4, 2);
}
