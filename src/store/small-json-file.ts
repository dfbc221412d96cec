import { readFile, stat } from 'node:fs/promises';

/** A small state file read whole: its JSON, none yet, or why it cannot be used (a reason naming the file). */
export type SmallJsonRead = { kind: 'ok'; json: unknown } | { kind: 'missing' } | { kind: 'bad'; reason: string };

/**
 * Reads a state file of ours that is a few hundred bytes of JSON (the credit ledger, the warmth book): one larger than
 * `maxBytes` was not written by us and is not read whole (`tooLarge` says so in the owner's words); one that cannot be
 * read or parsed is reported with its reason, never taken in part. What the JSON must hold is the caller's schema.
 */
export async function readSmallJson(
  file: string,
  maxBytes: number,
  tooLarge: (size: number) => string,
): Promise<SmallJsonRead> {
  let text: string;
  try {
    const { size } = await stat(file);
    if (size > maxBytes) return { kind: 'bad', reason: tooLarge(size) };
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? { kind: 'missing' }
      : { kind: 'bad', reason: `cannot read ${file} (${code ?? String(err)})` };
  }
  try {
    return { kind: 'ok', json: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'bad', reason: `${file} is not JSON (truncated or corrupt, ${text.length} bytes)` };
  }
}
