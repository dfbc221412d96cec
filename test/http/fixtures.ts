import type { StoredRecommendation } from '../../src/api/schemas.js';
import { DisplaySchema, type DisplayConfig } from '../../src/config/schema.js';
import { encodeFrame, type Frame } from '../../src/render/frame.js';
import type { FrameStatus } from '../../src/domain/frame-status.js';
import { loadPanel } from '../../src/panels/panels.js';
import { viewSize } from '../../src/render/frame.js';
import type { DisplayState } from '../../src/state/display-state.js';
import { shownState, type ShownState } from '../helpers/views.js';
import type { Clock } from '../../src/time/clock.js';
import { clockAt } from '../helpers/fake-clock.js';

/** Displays, Recommendations and real (small, quick) frames for the HTTP and firmware tests. */

export function display(id: string, over: Record<string, unknown> = {}): DisplayConfig {
  return DisplaySchema.parse({
    id,
    name: id[0]!.toUpperCase() + id.slice(1),
    lat: 52.52,
    lon: 13.405,
    panel: 'trmnl',
    schedule: '*/30 * * * *',
    ...over,
  });
}

export function rec(over: { outfit?: string; fetchedAt?: string } = {}): StoredRecommendation {
  return {
    outfit: over.outfit ?? 'Light jacket, jeans and trainers.',
    reasoning: 'Mild and dry with a light breeze.',
    model: 'outfit-model-1',
    generated_at: '2026-01-31T07:00:00.000Z',
    fetched_at: over.fetchedAt ?? '2026-01-31T07:00:01.000Z',
    weather: {
      temp: 13,
      feels_like: 11.5,
      temp_unit: '°C',
      humidity_pct: 64,
      wind_speed: 14,
      wind_speed_unit: 'km/h',
      wind_dir: 'NW',
      description: 'Partly cloudy',
      rain_chance_pct: 20,
      uv_index: 2,
      is_day: true,
      alerts: [],
      source: 'simulated',
    },
  };
}

/**
 * A real frame for the display's panel (PNG, BMP, raw from the project's encoders), without layout: a pattern of
 * palette indices that `seed` changes (a block of the darkest colour whose place depends on the seed).
 */
export function patternFrame(d: DisplayConfig, seed: number): Frame {
  const panel = loadPanel(d.panel);
  const { width, height } = viewSize(panel, d.rotation);
  const white = Math.max(
    0,
    panel.palette.findIndex((e) => e.rgb === '#ffffff'),
  );
  const indices = new Uint8Array(width * height).fill(white);
  const bx = (seed * 37) % Math.max(1, width - 40);
  const by = (seed * 23) % Math.max(1, height - 20);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inBlock = x >= bx && x < bx + 40 && y >= by && y < by + 20;
      const stripe = (x + y * 3 + seed) % 97 === 0;
      if (inBlock || stripe)
        indices[y * width + x] = (seed + x) % panel.palette.length === white ? 0 : (seed + x) % panel.palette.length;
    }
  }
  return encodeFrame(panel, d.rotation, { width, height, indices });
}

/** A display's state as its cycle records it (record it with testViews().show() and publish the view). */
export function update(d: DisplayConfig, seed: number, over: Partial<Omit<DisplayState, 'frame'>> = {}): ShownState {
  const status: FrameStatus = { kind: 'ok' };
  return shownState(d, patternFrame(d, seed), { rec: rec(), status, ...over });
}

export { capturingLogger } from '../helpers/capturing-logger.js';

/** A clock the test moves. */
export function manualClock(
  start = Date.parse('2026-01-31T07:00:00.000Z'),
): Clock & { advance: (ms: number) => void; set: (t: number) => void } {
  let t = start;
  return { ...clockAt(() => t), advance: (ms) => (t += ms), set: (v) => (t = v) };
}
