import { listPanelIds, loadPanel, type PanelProfile } from '../panels/panels.js';
import { deviceModel, deviceModels, type DeviceModel } from '../panels/device-models.js';
import { normalizeMac } from './mac.js';

/**
 * The screen a device that pulls frames from us is drawn for. The model table (which panel each `Model` means, its
 * download limit) is data both we and the firmware simulator read: display/panels/device-models.yaml, through
 * src/panels/device-models.ts.
 *
 * A TRMNL device names its model in the `Model` header and its screen in `Width` and `Height` (trmnl-kindle in
 * `png-width` / `png-height`); the model names are the firmware's (`include/config.h`, ../shared/facts/trmnl-protocol.md)
 * and larapaper's registry (`og_plus`, `og_png`). A binding's `panel` wins over both. A screen we have no profile
 * for gets the largest profile that fits inside it, so the picture is never cropped (the firmware crops, it does
 * not scale).
 */

export type TrmnlFormat = 'png' | 'bmp';

/** What one device needs drawn. */
export interface ScreenSpec {
  /** The panel profile; null: the old rule, for a device that did not say its screen. */
  panel: string | null;
  format: TrmnlFormat;
  /** The firmware's download limit for it. */
  maxBytes: number;
  /** The one person of the household it shows (config `person`); absent: the display's frame, everyone. */
  person?: string;
}

/** The ESP32-C3 of the original TRMNL refuses bigger downloads: what a device that names no model is held to. */
export const OG_MAX_BYTES = 90_000;
/** X-class boards (ESP32-S3 with PSRAM; the firmware's MAX_IMAGE_SIZE): a screen larger than the original's. */
const X_MAX_BYTES = 750_000;

/** What a device said about itself, as the request carried it. */
export interface ScreenHint {
  /** A binding's `panel`: wins over anything the device says. */
  panel?: string | null;
  model?: string | null;
  width?: number | null;
  height?: number | null;
}

export type ScreenChoice =
  /** Drawn for the profile the binding names, the model's, or the one of exactly the screen's size. */
  | { kind: 'exact'; panel: PanelProfile; model: DeviceModel | null; why: 'binding' | 'model' | 'size' }
  /** No profile has the screen's size: the largest that fits inside it (or the smallest of all, when none does). */
  | { kind: 'nearest'; panel: PanelProfile; model: DeviceModel | null; width: number; height: number }
  /** The device said nothing we can use (old firmware): the display's own frame where a TRMNL can show it. */
  | { kind: 'unknown' };

/** What a device needs drawn, from the screen chosen for it. */
export function screenSpec(choice: ScreenChoice, format: TrmnlFormat): ScreenSpec {
  if (choice.kind === 'unknown') return { panel: null, format, maxBytes: OG_MAX_BYTES };
  const p = choice.panel;
  // A screen larger than the original's is on an X-class board.
  const maxBytes = choice.model?.maxBytes ?? (p.width * p.height > 800 * 480 ? X_MAX_BYTES : OG_MAX_BYTES);
  return { panel: p.id, format, maxBytes };
}

/** The screens of configured devices before they say anything: a fixed panel, else the old rule. */
export function bindingScreens(
  bindings: ReadonlyArray<{ mac: string; panel?: string; format?: TrmnlFormat; person?: string }>,
): Map<string, ScreenSpec> {
  return new Map(
    bindings.map((b) => [
      normalizeMac(b.mac) ?? b.mac,
      {
        ...screenSpec(
          b.panel === undefined ? { kind: 'unknown' } : chooseScreen({ panel: b.panel }),
          b.format ?? 'png',
        ),
        ...(b.person !== undefined && { person: b.person }),
      },
    ]),
  );
}

function sameSize(p: PanelProfile, w: number, h: number): boolean {
  return (p.width === w && p.height === h) || (p.width === h && p.height === w);
}

/** Fits inside the screen in its own orientation or turned a quarter (the display's rotation turns it). */
function fits(p: PanelProfile, w: number, h: number): boolean {
  return (p.width <= w && p.height <= h) || (p.width <= h && p.height <= w);
}

function positive(n: number | null | undefined): number | null {
  return n !== null && n !== undefined && Number.isInteger(n) && n > 0 && n <= 10_000 ? n : null;
}

/**
 * The panel profile a device's screen is drawn for. Models first (their profile says the colours too), then the
 * size; among profiles of one size, the model table's (a TRMNL's own profile before a Waveshare panel of the same
 * glass).
 */
export function chooseScreen(hint: ScreenHint): ScreenChoice {
  if (hint.panel)
    return { kind: 'exact', panel: loadPanel(hint.panel), model: deviceModel(hint.model), why: 'binding' };
  const model = deviceModel(hint.model);
  const w = positive(hint.width);
  const h = positive(hint.height);
  if (model !== null) {
    const panel = loadPanel(model.panel);
    // A model whose screen the headers contradict (a board on a newer revision): the size decides.
    if (w === null || h === null || sameSize(panel, w, h)) return { kind: 'exact', panel, model, why: 'model' };
  }
  if (w === null || h === null) return { kind: 'unknown' };
  const modelPanels = deviceModels().map((m) => m.panel);
  const all = [...new Set([...modelPanels, ...listPanelIds()])].map((id) => loadPanel(id));
  const exact = all.find((p) => sameSize(p, w, h));
  if (exact) return { kind: 'exact', panel: exact, model, why: 'size' };
  const area = (p: PanelProfile): number => p.width * p.height;
  const inside = all.filter((p) => fits(p, w, h)).sort((a, b) => area(b) - area(a));
  const panel = inside[0] ?? [...all].sort((a, b) => area(a) - area(b))[0]!;
  return { kind: 'nearest', panel, model, width: w, height: h };
}

/** One row of /api/models, in the shape of TRMNL's model registry; `panel` says which of our profiles it is. */
function modelEntry(m: DeviceModel): Record<string, unknown> {
  const p = loadPanel(m.panel);
  // The registry gives a screen as the device holds it: a Kindle's landscape picture is turned a quarter.
  const turned = m.kind === 'kindle' && p.height > p.width;
  return {
    name: m.name,
    label: m.label,
    description: p.name,
    width: turned ? p.height : p.width,
    height: turned ? p.width : p.height,
    colors: p.palette.length,
    bit_depth: p.bit_depth,
    scale_factor: 1,
    rotation: turned ? 90 : 0,
    mime_type: 'image/png',
    offset_x: 0,
    offset_y: 0,
    kind: m.kind,
    palette_ids: m.palettes,
    image_size_limit: m.maxBytes,
    panel: p.id,
  };
}

/** GET /api/models: every model we draw for. */
export function modelRegistry(): { data: Array<Record<string, unknown>> } {
  return { data: deviceModels().map((m) => modelEntry(m)) };
}
