/**
 * An image the device refuses, with the firmware's own error name and words (TRMNL firmware bl.cpp / png / bmp):
 * the simulator reports a bad frame the way the device would, and never crashes on one.
 */
export type ImageErrorCode =
  | 'HTTPS_WRONG_IMAGE_SIZE'
  | 'HTTPS_IMAGE_FILE_TOO_BIG'
  | 'PNG_WRONG_FORMAT'
  | 'PNG_BAD_SIZE'
  | 'PNG_BAD_DEPTH'
  | 'PNG_DECODE_ERR'
  | 'PNG_MALLOC_FAILED'
  | 'BMP_NOT_BMP'
  | 'BMP_BAD_SIZE'
  | 'BMP_COLOR_SCHEME_FAILED'
  | 'BMP_INVALID_OFFSET';

export class ImageError extends Error {
  readonly code: ImageErrorCode;

  constructor(code: ImageErrorCode, message: string) {
    super(message);
    this.name = 'ImageError';
    this.code = code;
  }
}
