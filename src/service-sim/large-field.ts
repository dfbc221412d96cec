/**
 * The `large_field` fault: a 200 whose field `field` (a dotted path; made when missing) holds about `bytes` bytes of
 * JSON text, in one of the forms whose parsed value is written larger than it was sent, or just long:
 * - `text`: a string of words;
 * - `exponents`: an array of `1e20`, each written back as its 21 digits;
 * - `nested`: arrays nested in each other, as deep as the bytes allow;
 * - `not_utf8`: a string of bytes that are not UTF-8, each read as a three-byte U+FFFD;
 * - `numbers`: an array of decimal numbers (twenty bytes each), as a service's extra data would be.
 * The body is made as bytes, in chunks (largeFieldChunks), so that hundreds of MB stream with little memory:
 * JSON.stringify could not send the first form or the fourth.
 */

export const LARGE_FILLS = ['text', 'exponents', 'nested', 'not_utf8', 'numbers'] as const;
export type LargeFill = (typeof LARGE_FILLS)[number];

export interface LargeFieldFault {
  field: string;
  bytes: number;
  fill?: LargeFill;
}

const MARK = '\u0000large-field\u0000';
const CHUNK = 64 * 1024;

/** `unit` repeated `count` times, in chunks of about CHUNK bytes. */
function* repeated(unit: Buffer, count: number): Generator<Buffer> {
  const perChunk = Math.max(1, Math.floor(CHUNK / unit.length));
  const full = Buffer.concat(Array.from({ length: perChunk }, () => unit));
  let left = count;
  while (left > 0) {
    const n = Math.min(left, perChunk);
    yield n === perChunk ? full : full.subarray(0, n * unit.length);
    left -= n;
  }
}

/** `items` copies of `item` separated by commas, in brackets. */
function* list(item: string, items: number): Generator<Buffer> {
  yield Buffer.from(`[${item}`);
  yield* repeated(Buffer.from(`,${item}`), items - 1);
  yield Buffer.from(']');
}

/** The JSON text of the fill, about `bytes` long, in chunks. */
function* fillChunks(fill: LargeFill, bytes: number): Generator<Buffer> {
  switch (fill) {
    case 'text': {
      const words = Buffer.from('a warm coat and a scarf over a thick jumper, boots for the wet pavement, ');
      const inner = Math.max(0, bytes - 2);
      yield Buffer.from('"');
      yield* repeated(words, Math.floor(inner / words.length));
      yield Buffer.concat([words.subarray(0, inner % words.length), Buffer.from('"')]);
      return;
    }
    case 'exponents':
      yield* list('1e20', Math.max(1, Math.floor(bytes / 5)));
      return;
    case 'nested': {
      const depth = Math.max(1, Math.floor(bytes / 2));
      yield* repeated(Buffer.from('['), depth);
      yield* repeated(Buffer.from(']'), depth);
      return;
    }
    case 'not_utf8':
      yield Buffer.from('"');
      yield* repeated(Buffer.from([0xff]), Math.max(0, bytes - 2));
      yield Buffer.from('"');
      return;
    case 'numbers':
      yield* list('12.345678901234567', Math.max(1, Math.floor(bytes / 19)));
      return;
  }
}

/** `body` (a success body) with the large field in it, as the chunks to send. */
export function* largeFieldChunks(body: unknown, fault: LargeFieldFault): Generator<Buffer> {
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  const parts = fault.field.split('.');
  const last = parts.pop() ?? fault.field;
  let at: Record<string, unknown> = copy;
  for (const p of parts) {
    const next = at[p];
    at =
      typeof next === 'object' && next !== null && !Array.isArray(next)
        ? (next as Record<string, unknown>)
        : (at[p] = {});
  }
  at[last] = MARK;
  const [before = '', after = ''] = JSON.stringify(copy).split(JSON.stringify(MARK));
  yield Buffer.from(before);
  yield* fillChunks(fault.fill ?? 'text', fault.bytes);
  yield Buffer.from(after);
}

/** The same, as one buffer (for a few MB at most). */
export function largeFieldBody(body: unknown, fault: LargeFieldFault): Buffer {
  return Buffer.concat([...largeFieldChunks(body, fault)]);
}
