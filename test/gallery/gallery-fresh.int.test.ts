import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { galleryFiles } from './gallery-files.js';

/**
 * Every file of the committed gallery (display/gallery/) is what the code draws now: each frame, stress frame, zoomed
 * crop and ink picture drawn again in memory (gallery-files.ts, as `npm run gallery` draws them) and compared byte for
 * byte, README.md (its sizes in KB) included. The small text beside FreeType's is not drawn again: Debian's FreeType
 * decides its pixels, not this code. Which files the gallery holds is gallery-complete.test.ts's check.
 */

const GALLERY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../display/gallery');

describe('the committed gallery', () => {
  it('is what the code draws, file for file', { timeout: 900_000 }, async () => {
    const stale: string[] = [];
    let compared = 0;
    for await (const file of galleryFiles({ freeType: false })) {
      const committed = path.join(GALLERY, file.path);
      compared++;
      if (!existsSync(committed)) stale.push(`${file.path} (missing)`);
      else if (!readFileSync(committed).equals(file.bytes)) stale.push(file.path);
    }
    expect(compared).toBeGreaterThan(400);
    expect(
      stale,
      `${stale.length} of ${compared} files in display/gallery/ are not what the code draws: run npm run gallery`,
    ).toEqual([]);
  });
});
