import type { DisplayRenderOptions, DrawAs, DrawFrame, FrameState } from './display-render.js';
import { renderFrame, type RenderOptions } from './frame.js';
import type { FrameInput } from './layout/content.js';
import type { PanelProfile } from '../panels/panels.js';

/** The frame input and render options of a display's state; `as` draws it for another panel (a TRMNL device's). */
export function displayFrameInput(o: DisplayRenderOptions, state: FrameState, as?: DrawAs): { input: FrameInput; panel: PanelProfile; opts: RenderOptions } {
  return {
    input: { ...state, displayName: o.displayName, timezone: o.timezone, ...(o.locale !== undefined && { locale: o.locale }) },
    panel: as?.panel ?? o.panel,
    opts: { rotation: as?.rotation ?? o.rotation, ...(o.dither !== undefined && { dither: o.dither }) },
  };
}

/** Draws a display's state in this process (DrawFrame): loads canvas. */
export const renderDisplayFrame: DrawFrame = (o, state, as) => {
  const { input, panel, opts } = displayFrameInput(o, state, as);
  return renderFrame(input, panel, opts);
};
