/**
 * A frame as a baseline JPEG, for receivers that take only JPEG (an OpenEPaperLink access point decodes its uploads
 * with a baseline-only decoder and quantises them to the tag's palette itself: ../shared/facts/openepaperlink.md).
 * Quality 100 and no chroma subsampling keep the palette's flat colours and hard edges close enough that nearest-
 * colour quantisation gives the drawn pixels back (test/oepl/ measures it). canvas is loaded at the first call, so
 * that a daemon without such a receiver never loads it here.
 */
export async function pngToJpeg(png: Buffer): Promise<{ jpeg: Buffer; width: number; height: number }> {
  const { createCanvas, loadImage } = await import('canvas');
  const img = await loadImage(png);
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  // An opaque white ground: the PNG is opaque, but JPEG has no alpha and canvas would blend onto black.
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, img.width, img.height);
  ctx.drawImage(img, 0, 0);
  const jpeg = canvas.toBuffer('image/jpeg', { quality: 1, progressive: false, chromaSubsampling: false });
  return { jpeg, width: img.width, height: img.height };
}
