import type { PanelProfile } from '../../panels/panels.js';
import type { PanelImage } from '../driver.js';
import { EpdError } from '../epd-error.js';

/**
 * What every family's driver checks before a byte goes to the bus: the frame is the profile's width x height, and
 * each pixel one of its palette indices. Else E_PANEL_FRAME, naming the panel, what was wrong and where.
 */
export function checkPanelImage(
  profile: Pick<PanelProfile, 'id' | 'width' | 'height' | 'palette'>,
  image: PanelImage,
): void {
  const { id, width, height } = profile;
  if (image.width !== width || image.height !== height || image.indices.length !== width * height) {
    throw new EpdError(
      'E_PANEL_FRAME',
      `panel ${id}: the frame is ${image.width}x${image.height} (${image.indices.length} pixels), the panel takes ${width}x${height}: render the frame for this panel`,
    );
  }
  const colours = profile.palette.length;
  const bad = image.indices.findIndex((v) => v >= colours);
  if (bad >= 0) {
    throw new EpdError(
      'E_PANEL_FRAME',
      `panel ${id}: pixel (${bad % width}, ${Math.floor(bad / width)}) is palette index ${image.indices[bad]}, the panel has ${colours} colours: render the frame with this panel's palette`,
    );
  }
}
