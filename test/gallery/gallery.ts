import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { localeFor, type Locale } from '../../src/i18n/locale.js';
import { drawInProcess, displayRenderOptions } from '../../src/render/display-frame.js';
import { renderIndices } from '../../src/render/frame.js';
import { packageRoot } from '../../src/shared/package-root.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { SAMPLE_LINES, sideBySidePng } from './small-text-compare.js';
import { smallestTextRect, zoomCrop } from './zoom-crop.js';
import { PanelSim } from '../../display/firmware/panel-sim.js';
import { SAMPLE_CASES, SAMPLE_TIMEZONE, type SampleCase, sampleInput, STRESS_SAMPLES } from '../fixtures/samples.js';

/** The cases a colour panel shows in its measured inks in ink/: an alert and likely rain; snow at −4 °C. */
const INK_CASES: readonly SampleCase[] = ['alert', 'long'];

/** The case whose smallest text each panel shows at 4x in zoom/ (its top band, or the small layouts' alert bar). */
const ZOOM_CASE: SampleCase = 'alert';

/**
 * Regenerates display/gallery/: every panel's frame for each sample case, exactly as the panel gets it, in
 * English and in a second language (the other built-in ones in turn, so each shows on some panel), and an index
 * (README.md). The project README and docs/guides/frame.md show some of the frames by file name
 * (test/house/links.test.ts fails when one is gone). Run: `npm run gallery`.
 */

/** The panels the gallery shows, in its order: every profile in display/panels/ (a new profile joins by itself). */
export function galleryPanels(): string[] {
  return listPanelIds();
}

/** The second language of each panel, in turn by the panel's place in the list: German first (the longest labels). */
const SECOND_LANGUAGES = ['de', 'fr', 'es', 'it', 'nl', 'pl', 'sv'];

/** The languages a panel is shown in: English, and one other. */
export function galleryLocales(panelIndex: number): Locale[] {
  return [localeFor('en'), localeFor(SECOND_LANGUAGES[panelIndex % SECOND_LANGUAGES.length]!)];
}

const CASE_TITLES: Record<SampleCase, string> = {
  normal: 'a normal day',
  alert: 'weather alerts',
  long: 'a 120-word outfit',
  error: 'service error',
  short: 'a 10-word outfit',
  forty: 'a 40-word outfit',
  old: 'an outfit out of date',
  offline: 'no connection',
  key: 'API key refused',
};

export interface GalleryEntry {
  panel: string;
  name: string;
  case: SampleCase;
  /** The locale code of the frame's labels ("en", "de"). */
  locale: string;
  file: string;
  width: number;
  height: number;
  bytes: number;
}

/** `panels`: only these (default: every panel), each keeping its place in the full list for its second language. */
export async function writeGallery(
  dir = join(packageRoot(), 'display', 'gallery'),
  panels?: readonly string[],
): Promise<GalleryEntry[]> {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.endsWith('.png')) rmSync(join(dir, f));
  rmSync(join(dir, 'zoom'), { recursive: true, force: true });
  rmSync(join(dir, 'ink'), { recursive: true, force: true });
  rmSync(join(dir, 'stress'), { recursive: true, force: true });
  const entries: GalleryEntry[] = [];
  for (const [index, id] of galleryPanels().entries()) {
    if (panels && !panels.includes(id)) continue;
    const panel = loadPanel(id);
    for (const locale of galleryLocales(index)) {
      // Drawn as the daemon draws a display (one place builds a display's render options): a hallway on this panel.
      const render = displayRenderOptions(
        { id: 'hallway', name: 'Hallway', panel: id, rotation: 0 },
        { timezone: SAMPLE_TIMEZONE, locales: new Map([['hallway', locale]]) },
      );
      for (const c of SAMPLE_CASES) {
        const frame = await drawInProcess(render, sampleInput(c, 'Hallway', locale));
        // English keeps the names the README and docs/guides/frame.md link to.
        const file = locale.code === 'en' ? `${id}-${c}.png` : `${id}-${c}.${locale.code}.png`;
        writeFileSync(join(dir, file), frame.png);
        entries.push({
          panel: id,
          name: panel.name,
          case: c,
          locale: locale.code,
          file,
          width: frame.width,
          height: frame.height,
          bytes: frame.png.length,
        });
      }
    }
    await writeStressFrames(dir, id);
    // The smallest text at 4x, pixel by pixel (zoom-crop.ts), in its own folder: the frames' list stays as it is.
    const zoomed = renderIndices(sampleInput(ZOOM_CASE), panel, { rotation: 0 });
    const rect = smallestTextRect(zoomed);
    if (rect) {
      mkdirSync(join(dir, 'zoom'), { recursive: true });
      writeFileSync(join(dir, 'zoom', `${id}-${ZOOM_CASE}.png`), zoomCrop({ panel, frame: zoomed, rect }));
    }
    // Colour judged as the wall shows it: the simulator's glass in the profile's measured inks (panel-sim.ts).
    if (panel.palette.some((e) => e.ink !== undefined)) {
      mkdirSync(join(dir, 'ink'), { recursive: true });
      for (const c of INK_CASES) {
        const frame = renderIndices(sampleInput(c), panel, { rotation: 0 });
        const glass = new PanelSim(panel, frame.width, frame.height);
        glass.show(frame.indices);
        writeFileSync(join(dir, 'ink', `${id}-${c}.png`), glass.inkPng());
      }
    }
  }
  // Small text beside FreeType's hinted 1-bit rendering of the same fonts (small-text-compare.ts), the whole
  // gallery only: it needs Debian's python3-pil, which a run for a few panels (gallery.test.ts) does not.
  const sizes = panels ? [] : SMALL_SIZES;
  if (sizes.length > 0) mkdirSync(join(dir, 'zoom'), { recursive: true });
  for (const size of sizes) writeFileSync(join(dir, 'zoom', `small-text-${size}px.png`), sideBySidePng(size));
  writeFileSync(join(dir, 'README.md'), galleryMarkdown(entries) + smallTextMarkdown(sizes));
  return entries;
}

/**
 * The stress samples (samples.ts) on panel `id`, in English, in their own folder (stress/<panel>-<sample>.png):
 * answers gone wrong are drawn, cut where they must be, never a crash or a blank frame.
 */
export async function writeStressFrames(dir: string, id: string): Promise<string[]> {
  mkdirSync(join(dir, 'stress'), { recursive: true });
  const render = displayRenderOptions(
    { id: 'hallway', name: 'Hallway', panel: id, rotation: 0 },
    { timezone: SAMPLE_TIMEZONE, locales: new Map([['hallway', localeFor('en')]]) },
  );
  const files: string[] = [];
  for (const [name, rec] of Object.entries(STRESS_SAMPLES)) {
    const frame = await drawInProcess(render, { ...sampleInput('normal'), rec, garments: undefined });
    const file = join('stress', `${id}-${name}.png`);
    writeFileSync(join(dir, file), frame.png);
    files.push(file);
  }
  return files;
}

export function galleryMarkdown(entries: GalleryEntry[], prefix = ''): string {
  const lines = [
    '# Frame gallery',
    '',
    'Generated by `npm run gallery` from the sample recommendations in `test/fixtures/samples.ts`; each file is the',
    'exact PNG the panel gets (its size, palette and bit depth), in English and in a second language per panel',
    "(`locale` in the config; the service's own texts stay as sent). Do not edit by hand.",
    '',
  ];
  const byPanel = new Map<string, GalleryEntry[]>();
  for (const e of entries) byPanel.set(e.panel, [...(byPanel.get(e.panel) ?? []), e]);
  for (const [id, list] of byPanel) {
    const first = list[0]!;
    lines.push(`## ${first.name} (\`${id}\`, ${first.width}x${first.height})`, '');
    const locales = [...new Set(list.map((e) => e.locale))];
    const cases = [...new Set(list.map((e) => e.case))];
    lines.push(`| | ${cases.map((c) => CASE_TITLES[c]).join(' | ')} |`, `|---|${cases.map(() => '---').join('|')}|`);
    for (const locale of locales) {
      const row = list.filter((e) => e.locale === locale);
      lines.push(
        `| \`${locale}\` | ${row.map((e) => `![${id} ${e.case} ${locale}](${prefix}${e.file}) ${(e.bytes / 1024).toFixed(1)} KB`).join(' | ')} |`,
      );
    }
    lines.push(
      '',
      `The smallest text of "${CASE_TITLES[ZOOM_CASE]}" at 4x: ![${id} zoomed](${prefix}zoom/${id}-${ZOOM_CASE}.png)`,
    );
    lines.push(
      '',
      `Answers gone wrong: ${Object.keys(STRESS_SAMPLES)
        .map((s) => `![${id} ${s}](${prefix}stress/${id}-${s}.png)`)
        .join(' ')}`,
    );
    if (loadPanel(id).palette.some((e) => e.ink !== undefined)) {
      const shots = INK_CASES.map((c) => `![${id} ${c} in its inks](${prefix}ink/${id}-${c}.png)`).join(' ');
      lines.push('', `On the real glass, in the profile's measured inks (the simulator's \`glass-ink.png\`): ${shots}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** The sizes whose small text the gallery shows beside FreeType's. */
const SMALL_SIZES = [9, 10, 11, 12, 13, 14, 15, 16];

function smallTextMarkdown(sizes: readonly number[]): string {
  if (sizes.length === 0) return '';
  const lines = [
    '## Small text beside FreeType',
    '',
    `Our rasteriser (above each rule) and FreeType's hinted 1-bit rendering of the same DejaVu files (below it), at 4x:`,
    `${SAMPLE_LINES.map((l) => `"${l}"`).join(', ')}, in the regular, bold and condensed faces.`,
    '`test/render/small-text-reader.sys.test.ts` has tesseract read both.',
    '',
  ];
  for (const size of sizes) lines.push(`${size} px: ![small text at ${size} px](zoom/small-text-${size}px.png)`, '');
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const entries = await writeGallery();
  process.stdout.write(`wrote ${entries.length} frames to display/gallery/\n`);
}
