import { describe, expect, it } from 'vitest';
import { loadPanel } from '../../src/panels/panels.js';
import { encodeRaw } from '../../src/render/encode/raw.js';
import { storedFrame, vendorStream } from '../epd/stored-frame.js';

/*
 * The raw framebuffer (`.bin`, Frame.raw) is documented as the controller's RAM in its native order. Here it is held
 * against the RAM bytes Waveshare's own Python drivers write for the same picture: the data of the Write RAM
 * (black/white) command 0x24 in the vendor's recorded stream test/epd/vendor/<panel>-<frame>.jsonl.gz, made by
 * running epd2in13_V4.py, epd2in9_V2.py and epd4in2_V2.py on the stored frame test/epd/frames/<panel>-<frame>.png
 * (see test/epd/vendor/README.md). The 4.2" also writes the same bytes to 0x26; only 0x24 is compared.
 *
 * What is compared: all three panels have one 1-bit plane whose 1 is white, as the SSD1680/SSD1683 black/white RAM
 * (and the vendor's getbuffer()) have it; the test checks that polarity in each profile first, so a profile turned
 * to 1 = black fails here by name rather than as a byte difference. The frame PNG is decoded with pngjs (not our
 * encoder) into the profile's palette indices; the raw framebuffer is built as Frame.raw builds it (encodeRaw, mount
 * rotation 0), so only the profile's `native_rotation` and `framebuffer` packing are under test.
 */

const PANELS = ['waveshare-2in13', 'waveshare-2in9', 'waveshare-4in2'] as const;
const FRAMES = ['normal', 'long', 'error'] as const;
const WRITE_RAM_BW = 0x24;

/** The data of the vendor's one 0x24 write in the recorded stream. */
function vendorRam(panelId: string, frame: string): Buffer {
  const writes = vendorStream(panelId, frame).flatMap((op) =>
    op.op === 'cmd' && op.cmd === WRITE_RAM_BW ? [op.data] : [],
  );
  expect(writes.length, `0x24 writes in ${panelId}-${frame}`).toBe(1);
  return Buffer.from(writes[0]!, 'hex');
}

describe.each(PANELS)('%s raw framebuffer', (panelId) => {
  const panel = loadPanel(panelId);

  it('is one 1-bit plane, MSB first, rows padded to a byte, where 1 is white and 0 is black', () => {
    const white = panel.palette.findIndex((e) => e.rgb === '#ffffff');
    const black = panel.palette.findIndex((e) => e.rgb === '#000000');
    expect(panel.palette).toHaveLength(2);
    expect(panel.framebuffer.planes).toHaveLength(1);
    const plane = panel.framebuffer.planes[0]!;
    expect(plane.bits_per_pixel).toBe(1);
    expect([plane.values[white], plane.values[black]]).toEqual([1, 0]);
    expect([panel.framebuffer.bit_order, panel.framebuffer.row_align_bytes]).toEqual(['msb-first', 1]);
  });

  it.each(FRAMES)('of the %s frame is byte for byte the RAM the vendor driver writes (0x24)', (frame) => {
    const { width, height, indices } = storedFrame(panelId, frame);
    expect([width, height]).toEqual([panel.width, panel.height]);
    const ours = encodeRaw(indices, width, height, panel, 0);
    const vendor = vendorRam(panelId, frame);
    expect(ours.length).toBe(vendor.length);
    let differ = 0;
    for (let i = 0; i < ours.length; i++) if (ours[i] !== vendor[i]) differ++;
    expect(differ, `${differ} of ${ours.length} bytes differ from the vendor's RAM`).toBe(0);
  });
});
