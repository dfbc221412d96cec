import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { parseCapture, type CaptureOp } from '../../src/epd/capture-bus.js';
import type { PanelImage } from '../../src/epd/driver.js';
import { hexToRgb, loadPanel } from '../../src/panels/panels.js';

/*
 * The stored fixtures of the panel tests: the frames our renderer drew (test/epd/frames/<panel>-<frame>.png) and the
 * streams the vendors' own drivers sent for them (test/epd/vendor/<panel>-<frame>.jsonl.gz; see its README).
 */

const HERE = import.meta.dirname;

/** A stored frame decoded with pngjs (not our encoder) into palette indices of the panel profile. */
export function storedFrame(panelId: string, frame: string): PanelImage {
  const png = PNG.sync.read(readFileSync(join(HERE, 'frames', `${panelId}-${frame}.png`)));
  const index = new Map(loadPanel(panelId).palette.map((e, i) => [hexToRgb(e.rgb).join(','), i] as const));
  const indices = new Uint8Array(png.width * png.height);
  for (let i = 0; i < indices.length; i++) {
    const rgb = `${png.data[i * 4]},${png.data[i * 4 + 1]},${png.data[i * 4 + 2]}`;
    const at = index.get(rgb);
    if (at === undefined) throw new Error(`${panelId}-${frame}.png: pixel ${i} (${rgb}) is not in the palette`);
    indices[i] = at;
  }
  return { width: png.width, height: png.height, indices };
}

/** The vendor's stream for a stored frame, as the capture file's text. */
export function vendorText(panelId: string, frame: string): string {
  return gunzipSync(readFileSync(join(HERE, 'vendor', `${panelId}-${frame}.jsonl.gz`))).toString('ascii');
}

/** The vendor's stream for a stored frame, op by op. */
export function vendorStream(panelId: string, frame: string): CaptureOp[] {
  return parseCapture(vendorText(panelId, frame));
}

/** Bytes on the wire for a capture: each command byte and its data bytes. */
export function bytesSent(ops: readonly CaptureOp[]): number {
  return ops.reduce((n, op) => (op.op === 'cmd' ? n + 1 + op.data.length / 2 : n), 0);
}
