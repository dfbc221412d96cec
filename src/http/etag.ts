/** A strong ETag from a content hash (the first 32 hex digits are plenty to tell frames apart). */
export function etagOf(hash: string, variant = ''): string {
  return `"${hash.slice(0, 32)}${variant}"`;
}
