import type { DrawFrame } from './display-render.js';

/**
 * DrawFrame in this process, loading the renderer (and canvas) only at the first frame: the default of the cycle and
 * the TRMNL images, so that a daemon that draws in a render process (render-process.ts) never loads it.
 */
export const drawInProcess: DrawFrame = async (o, state, as) => (await import('./render-display-frame.js')).renderDisplayFrame(o, state, as);
