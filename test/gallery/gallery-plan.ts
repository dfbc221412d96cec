import { localeFor, type Locale } from '../../src/i18n/locale.js';
import type { FrameInput } from '../../src/render/layout/content.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import type { Rotation } from '../../src/render/encode/rotate.js';
import { SAMPLE_CASES, type SampleCase, sampleInput, STRESS_SAMPLES } from '../fixtures/samples.js';
import { EXTRA_SAMPLES, type ExtraSample, extraInput } from '../fixtures/extra-samples.js';
import { HOUSEHOLD_CASES, type HouseholdCase, householdInput } from '../fixtures/household-samples.js';

/**
 * What display/gallery/ holds, without drawing a pixel: every panel's frames (each sample case in English and a second
 * language; each extra sample, extra-samples.ts, in English; a household of two, three and four in English and German;
 * and a set of cases turned sideways where the panel can
 * hang that way), its stress frames, its smallest text at 4x and, for a colour panel, two frames in its measured inks.
 * gallery-files.ts draws what this lists; the gallery's checks hold the committed files to it.
 */

/**
 * A case the gallery draws: a sample case (samples.ts), an extra sample (extra-samples.ts) or a household
 * (household-samples.ts).
 */
export type GalleryCase = SampleCase | ExtraSample | HouseholdCase;

/** The languages of the household frames on every panel: English and German (the longest labels). */
export const HOUSEHOLD_LOCALES = ['en', 'de'] as const;

/** Whether a case is a household frame. */
export const isHousehold = (c: string): c is HouseholdCase => (HOUSEHOLD_CASES as readonly string[]).includes(c);

/** The cases a colour panel shows in its measured inks in ink/: an alert and likely rain; snow at −4 °C. */
export const INK_CASES: readonly SampleCase[] = ['alert', 'long'];

/** The case whose smallest text each panel shows at 4x in zoom/ (its top band, or the small layouts' alert bar). */
export const ZOOM_CASE: SampleCase = 'alert';

/**
 * The cases drawn sideways (rotation 90), in English: a day, the alerts, the longest and the shortest outfit, and the
 * states that take room from the outfit (an error, an outfit of the evening before, a refused key).
 */
export const SIDEWAYS_CASES: readonly SampleCase[] = ['normal', 'alert', 'long', 'short', 'error', 'old', 'key'];

export const CASE_TITLES: Record<GalleryCase, string> = {
  normal: 'a normal day',
  alert: 'weather alerts',
  long: 'a 120-word outfit',
  error: 'service error',
  short: 'a 10-word outfit',
  forty: 'a 40-word outfit',
  old: 'an outfit out of date',
  offline: 'no connection',
  key: 'API key refused',
  'stale-today': 'out of date the same morning',
  budget: 'budget used up',
  credits: 'service out of credits',
  'no-outfit': 'no outfit yet',
  withdrawn: 'an outfit too old to show',
  hebrew: 'a Hebrew outfit',
  arabic: 'an Arabic outfit',
  japanese: 'a Japanese outfit',
  'alerts-5': 'five alerts',
  hot: 'a hot day, 33 °C',
  tick: 'nothing extra needed',
  'household-2': 'two people',
  'household-3': 'three, one out',
  'household-4': 'four, one out of date',
};

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

/**
 * Whether a panel can hang sideways with its frame drawn upright for it. Every panel can, by its display's `rotation`,
 * but the OpenEPaperLink tags (`oepl-*` profiles): the access point is fed the tag's own size and turns the picture
 * itself for a tag mounted otherwise (src/oepl/oepl-publisher.ts), so such a tag never shows an upright layout.
 */
export function hangsSideways(id: string): boolean {
  return !id.startsWith('oepl-');
}

/** One frame of the gallery: what it draws and the file it goes to (relative to display/gallery/). */
export interface GalleryFrame {
  panel: string;
  case: GalleryCase;
  /** The locale code of the frame's labels ("en", "de"). */
  locale: string;
  rotation: Rotation;
  file: string;
}

/** The file of a frame: English at rotation 0 keeps the names the README and docs/guides/frame.md link to. */
function frameFile(id: string, c: GalleryCase, locale: string, rotation: Rotation): string {
  if (rotation !== 0) return `sideways/${id}-${c}${locale === 'en' ? '' : `.${locale}`}.png`;
  return locale === 'en' ? `${id}-${c}.png` : `${id}-${c}.${locale}.png`;
}

/** Panel `id`'s frames, in the gallery's order; `index` is its place in the full list (for its second language). */
export function panelFrames(id: string, index: number): GalleryFrame[] {
  const frames: GalleryFrame[] = [];
  const add = (c: GalleryCase, locale: string, rotation: Rotation): void =>
    void frames.push({ panel: id, case: c, locale, rotation, file: frameFile(id, c, locale, rotation) });
  for (const locale of galleryLocales(index)) for (const c of SAMPLE_CASES) add(c, locale.code, 0);
  for (const s of EXTRA_SAMPLES) add(s, 'en', 0);
  for (const locale of HOUSEHOLD_LOCALES) for (const c of HOUSEHOLD_CASES) add(c, locale, 0);
  if (hangsSideways(id)) for (const c of SIDEWAYS_CASES) add(c, 'en', 90);
  return frames;
}

/** Panel `id`'s other files: its stress frames, its smallest text at 4x, and a colour panel's frames in its inks. */
export function panelExtraFiles(id: string): { stress: string[]; zoom: string; ink: string[] } {
  const inks = loadPanel(id).palette.some((e) => e.ink !== undefined);
  return {
    stress: Object.keys(STRESS_SAMPLES).map((s) => `stress/${id}-${s}.png`),
    zoom: `zoom/${id}-${ZOOM_CASE}.png`,
    ink: inks ? INK_CASES.map((c) => `ink/${id}-${c}.png`) : [],
  };
}

/** The sizes whose small text the gallery shows beside FreeType's (the whole gallery only). */
export const SMALL_SIZES = [9, 10, 11, 12, 13, 14, 15, 16];

/** The file of the small text beside FreeType's at `size`. */
export const smallTextFile = (size: number): string => `zoom/small-text-${size}px.png`;

/** A gallery case's frame input in `locale`. */
export function galleryInput(c: GalleryCase, locale: Locale): FrameInput {
  if (isHousehold(c)) return householdInput(c, 'Hallway', locale);
  return (SAMPLE_CASES as readonly string[]).includes(c)
    ? sampleInput(c as SampleCase, 'Hallway', locale)
    : extraInput(c as ExtraSample, 'Hallway', locale);
}
