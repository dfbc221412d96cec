import { localeFor } from '../../src/i18n/locale.js';
import { drawInProcess, displayRenderOptions } from '../../src/render/display-frame.js';
import { renderIndices } from '../../src/render/frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { PanelSim } from '../../display/firmware/panel-sim.js';
import { sideBySidePng } from './small-text-compare.js';
import { smallestTextRect, zoomCrop } from './zoom-crop.js';
import { galleryMarkdown, type GalleryEntry } from './gallery-readme.js';
import {
  galleryInput,
  galleryPanels,
  INK_CASES,
  panelExtraFiles,
  panelFrames,
  SMALL_SIZES,
  smallTextFile,
  ZOOM_CASE,
} from './gallery-plan.js';
import { SAMPLE_TIMEZONE, sampleInput, STRESS_SAMPLES } from '../fixtures/samples.js';

/**
 * The gallery drawn into memory: each file of display/gallery/ (gallery-plan.ts lists them) as its bytes, README.md
 * last. `npm run gallery` writes them (gallery.ts); the freshness check compares them with the committed files
 * (gallery-fresh.int.test.ts). Nothing here writes a file.
 */

/** A file of the gallery: its path under display/gallery/, its bytes, and for a frame what it shows. */
export interface GalleryFile {
  path: string;
  bytes: Buffer;
  entry?: GalleryEntry;
}

export interface GalleryFilesOptions {
  /** Only these panels (default: every one), each keeping its place in the full list for its second language. */
  panels?: readonly string[];
  /**
   * Draw the small text beside FreeType's (zoom/small-text-*.px.png, the whole gallery only): it runs Debian's
   * python3 with python3-pil, whose FreeType decides its pixels. Default true; its section of README.md is written
   * either way.
   */
  freeType?: boolean;
}

/** Panel `id` drawn as the daemon draws a display named Hallway on it, in `locale`, turned `rotation`. */
function renderOptions(id: string, locale: string, rotation: 0 | 90) {
  return displayRenderOptions(
    { id: 'hallway', name: 'Hallway', panel: id, rotation },
    { timezone: SAMPLE_TIMEZONE, locales: new Map([['hallway', localeFor(locale)]]) },
  );
}

/** Every file of the gallery (of `o.panels`), in order, README.md last. */
export async function* galleryFiles(o: GalleryFilesOptions = {}): AsyncGenerator<GalleryFile> {
  const entries: GalleryEntry[] = [];
  for (const [index, id] of galleryPanels().entries()) {
    if (o.panels && !o.panels.includes(id)) continue;
    const panel = loadPanel(id);
    for (const f of panelFrames(id, index)) {
      const render = renderOptions(id, f.locale, f.rotation === 90 ? 90 : 0);
      const frame = await drawInProcess(render, galleryInput(f.case, localeFor(f.locale)));
      const entry: GalleryEntry = {
        ...f,
        name: panel.name,
        width: frame.width,
        height: frame.height,
        bytes: frame.png.length,
      };
      entries.push(entry);
      yield { path: f.file, bytes: frame.png, entry };
    }
    const extra = panelExtraFiles(id);
    // Answers gone wrong, in English: drawn, cut where they must be, never a crash or a blank frame.
    const stress = Object.values(STRESS_SAMPLES);
    for (const [i, rec] of stress.entries()) {
      const frame = await drawInProcess(renderOptions(id, 'en', 0), {
        ...sampleInput('normal'),
        rec,
        garments: undefined,
      });
      yield { path: extra.stress[i]!, bytes: frame.png };
    }
    // The smallest text at 4x, pixel by pixel (zoom-crop.ts), in its own folder.
    const zoomed = renderIndices(sampleInput(ZOOM_CASE), panel, { rotation: 0 });
    const rect = smallestTextRect(zoomed);
    if (rect) yield { path: extra.zoom, bytes: zoomCrop({ panel, frame: zoomed, rect }) };
    // Colour judged as the wall shows it: the simulator's glass in the profile's measured inks (panel-sim.ts).
    for (const [i, file] of extra.ink.entries()) {
      const frame = renderIndices(sampleInput(INK_CASES[i]!), panel, { rotation: 0 });
      const glass = new PanelSim(panel, frame.width, frame.height);
      glass.show(frame.indices);
      yield { path: file, bytes: glass.inkPng() };
    }
  }
  // Small text beside FreeType's hinted 1-bit rendering of the same fonts (small-text-compare.ts), the whole
  // gallery only.
  const sizes = o.panels ? [] : SMALL_SIZES;
  if (o.freeType ?? true) for (const size of sizes) yield { path: smallTextFile(size), bytes: sideBySidePng(size) };
  yield { path: 'README.md', bytes: Buffer.from(galleryMarkdown(entries, sizes)) };
}
