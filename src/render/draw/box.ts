/**
 * A rectangle of the frame, px: where a layout puts a block and a pictogram row draws. Here, below both, so that
 * pictograms/ need not import layout/.
 */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
