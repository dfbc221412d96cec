/**
 * The `large_field` fault: a 200 whose field `field` (a dotted path; made when missing) holds about `bytes` bytes of
 * JSON text, in one of the forms whose parsed value is written larger than it was sent, or just long:
 * - `text`: a string of words;
 * - `exponents`: an array of `1e20`, each written back as its 21 digits;
 * - `nested`: arrays nested in each other, as deep as the bytes allow;
 * - `not_utf8`: a string of bytes that are not UTF-8, each read as a three-byte U+FFFD.
 * The body is written as bytes: JSON.stringify could not send the first form or the last.
 */

export const LARGE_FILLS = ['text', 'exponents', 'nested', 'not_utf8'] as const;
export type LargeFill = (typeof LARGE_FILLS)[number];

export interface LargeFieldFault {
  field: string;
  bytes: number;
  fill?: LargeFill;
}

const MARK = '\u0000large-field\u0000';

/** The JSON text of the fill, about `bytes` long. */
function fillText(fill: LargeFill, bytes: number): Buffer {
  switch (fill) {
    case 'text': {
      const words = 'a warm coat and a scarf over a thick jumper, boots for the wet pavement, ';
      return Buffer.from(JSON.stringify(words.repeat(Math.ceil(bytes / words.length)).slice(0, Math.max(0, bytes - 2))));
    }
    case 'exponents':
      return Buffer.from(`[${Array.from({ length: Math.max(1, Math.floor(bytes / 5)) }, () => '1e20').join(',')}]`);
    case 'nested': {
      const depth = Math.max(1, Math.floor(bytes / 2));
      return Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    }
    case 'not_utf8':
      return Buffer.concat([Buffer.from('"'), Buffer.alloc(Math.max(0, bytes - 2), 0xff), Buffer.from('"')]);
  }
}

/** `body` (a success body) with the large field in it, as the bytes to send. */
export function largeFieldBody(body: unknown, fault: LargeFieldFault): Buffer {
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  const parts = fault.field.split('.');
  const last = parts.pop() ?? fault.field;
  let at: Record<string, unknown> = copy;
  for (const p of parts) {
    const next = at[p];
    at = typeof next === 'object' && next !== null && !Array.isArray(next) ? (next as Record<string, unknown>) : (at[p] = {});
  }
  at[last] = MARK;
  const [before = '', after = ''] = JSON.stringify(copy).split(JSON.stringify(MARK));
  return Buffer.concat([Buffer.from(before), fillText(fault.fill ?? 'text', fault.bytes), Buffer.from(after)]);
}
