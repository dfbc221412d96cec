import type { LoadedConfig } from '../config/load.js';
import type { DisplayConfig } from '../config/schema.js';
import type { Locale } from '../i18n/locale.js';
import type { FrameInput } from './layout/content.js';
import type { Frame, RenderOptions } from './frame.js';
import { loadPanel, type PanelProfile } from '../panels/panels.js';
import type { Dither } from './encode/quantize.js';
import type { Rotation } from './encode/rotate.js';
import type { StatusPlace } from '../domain/frame-status.js';
import { statusPlace } from '../config/status-place.js';

/** Whom a one-person frame shows (a small panel, a device or tag): the daemon chooses through this door. */

/**
 * How one display's frames are drawn, resolved from its config once: panel, name, time zone, rotation, dither and
 * locale. The daemon's cycle, the TRMNL images, `render` and the gallery all draw through this, so no publisher can
 * draw a display differently (the TRMNL copy once lost the display's language this way).
 */
export interface DisplayRenderOptions {
  /** The display's panel profile (display/panels/<id>.json). */
  panel: PanelProfile;
  /** Shown on the frame: the display's name, or its id. */
  displayName: string;
  /** IANA zone of the times on the frame. */
  timezone: string;
  /** How the panel is mounted. */
  rotation: Rotation;
  /** For icons and grey fills (`displays[].dither`); default Floyd–Steinberg. */
  dither: Dither | undefined;
  /** Labels, dates and numbers (`locale`, also per display); undefined: English. */
  locale: Locale | undefined;
  /** Where the frame sends its reader for the detail (config/status-place.ts); absent: "the status page". */
  statusPlace?: StatusPlace;
}

/** What of a display's config the frame depends on. */
export type DisplayForRender = Pick<DisplayConfig, 'id' | 'panel' | 'rotation'> &
  Partial<Pick<DisplayConfig, 'name' | 'dither'>>;

/** What the config loader resolved for every display (config/resolved-displays.ts), with the config's time zone. */
export interface RenderContext {
  /** The config's time zone. */
  timezone: string;
  /** Each display's resolved locale (LoadedConfig.locales); a display without one is drawn in English. */
  locales?: ReadonlyMap<string, Locale> | undefined;
  /** Each display's resolved panel profile (LoadedConfig.panels); without one (a display not from a loaded config:
   * the gallery, tests), the profile its `panel` names. */
  panels?: ReadonlyMap<string, PanelProfile> | undefined;
  /** Where the status page is (config/status-place.ts); absent: not known. */
  statusPlace?: StatusPlace;
}

/** The render context of a loaded config: its time zone, and each display's locale and panel the loader resolved. */
export function renderContext(loaded: Pick<LoadedConfig, 'config' | 'locales' | 'panels'>): RenderContext {
  return {
    timezone: loaded.config.timezone,
    locales: loaded.locales,
    panels: loaded.panels,
    statusPlace: statusPlace({ http: loaded.config.http }),
  };
}

/** The one place a display's render options are built. */
export function displayRenderOptions(display: DisplayForRender, ctx: RenderContext): DisplayRenderOptions {
  return {
    panel: ctx.panels?.get(display.id) ?? loadPanel(display.panel),
    displayName: display.name ?? display.id,
    timezone: ctx.timezone,
    rotation: display.rotation,
    dither: display.dither,
    locale: ctx.locales?.get(display.id),
    ...(ctx.statusPlace !== undefined && { statusPlace: ctx.statusPlace }),
  };
}

/** What changes from one frame of a display to the next. */
export type FrameState = Pick<FrameInput, 'rec' | 'status' | 'now'> &
  Partial<Pick<FrameInput, 'storeProblem' | 'notReadBack' | 'garments' | 'stale' | 'people' | 'onePerson'>>;

/** Another panel to draw a display's state for (a TRMNL device's), with its rotation. */
export interface DrawAs {
  panel: PanelProfile;
  rotation: Rotation;
}

/**
 * Draws a display's state as its panel shows it (or, with `as`, as another panel does): in this process
 * (drawInProcess), or in a child (render-process.ts). The cycle and the TRMNL images draw only through this, so that
 * `run` can keep canvas out of the daemon.
 */
export type DrawFrame = (o: DisplayRenderOptions, state: FrameState, as?: DrawAs) => Promise<Frame>;

/** The frame input and render options of a display's state; `as` draws it for another panel (a TRMNL device's). */
export function displayFrameInput(
  o: DisplayRenderOptions,
  state: FrameState,
  as?: DrawAs,
): { input: FrameInput; panel: PanelProfile; opts: RenderOptions } {
  return {
    input: {
      ...state,
      displayName: o.displayName,
      timezone: o.timezone,
      ...(o.locale !== undefined && { locale: o.locale }),
      ...(o.statusPlace !== undefined && { statusPlace: o.statusPlace }),
    },
    panel: as?.panel ?? o.panel,
    opts: { rotation: as?.rotation ?? o.rotation, ...(o.dither !== undefined && { dither: o.dither }) },
  };
}

/**
 * DrawFrame in this process. The renderer (and canvas) is loaded at the first frame, not with this file: the daemon
 * imports this file for its types and options, and when it draws in a render process it never loads canvas at all.
 */
export const drawInProcess: DrawFrame = async (o, state, as) => {
  const { input, panel, opts } = displayFrameInput(o, state, as);
  return (await import('./frame.js')).renderFrame(input, panel, opts);
};
