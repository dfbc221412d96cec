import { describeIssues } from '../shared/describe-issue.js';
import { z } from '../shared/zod.js';
import { readSmallJson } from '../store/small-json-file.js';

/**
 * The warmth book's file (`<state_dir>/warmth.json`): small JSON, written whole through the atomic writer, validated
 * whole when read. As the credit ledger's (src/budget/ledger-file.ts), a file that cannot be read is reported with
 * its reason and never taken in part: the book then starts every offset from 0.
 */

/** One person's warmth as kept. */
export interface WarmthEntry {
  /** °C, negative for someone who runs cold; within ±WARMTH.maxC. */
  offsetC: number;
  /** When the offset was last set by a vote or directly (ms since the epoch): its fade counts from here. */
  setAt: number;
  /** A vote has counted since the person's last new frame: more presses before the next one do nothing. */
  votedSinceFrame: boolean;
}

const EntrySchema = z.object({
  offset_c: z.number().finite().min(-50).max(50),
  set_at: z.number().finite().nonnegative(),
  voted_since_frame: z.boolean(),
});
const WarmthFileSchema = z.object({
  version: z.literal(1),
  people: z.record(z.string(), EntrySchema),
});

/** A warmth file is a few dozen bytes a person; a larger one was not written by us, and is not read whole. */
export const MAX_WARMTH_FILE_BYTES = 64 * 1024;

export type WarmthReadResult =
  { kind: 'ok'; people: Map<string, WarmthEntry> } | { kind: 'missing' } | { kind: 'bad'; reason: string };

export function warmthFileText(people: ReadonlyMap<string, WarmthEntry>): string {
  const out: Record<string, z.infer<typeof EntrySchema>> = {};
  for (const [id, e] of people)
    out[id] = { offset_c: e.offsetC, set_at: e.setAt, voted_since_frame: e.votedSinceFrame };
  return `${JSON.stringify({ version: 1, people: out })}\n`;
}

export async function readWarmthFile(file: string): Promise<WarmthReadResult> {
  const read = await readSmallJson(
    file,
    MAX_WARMTH_FILE_BYTES,
    (size) => `${file} is ${size} bytes, more than a warmth file can be`,
  );
  if (read.kind !== 'ok') return read;
  const parsed = WarmthFileSchema.safeParse(read.json);
  if (!parsed.success)
    return { kind: 'bad', reason: `${file} is not a warmth file (${describeIssues(parsed.error)[0] ?? 'invalid'})` };
  const people = new Map<string, WarmthEntry>();
  for (const [id, e] of Object.entries(parsed.data.people))
    people.set(id, { offsetC: e.offset_c, setAt: e.set_at, votedSinceFrame: e.voted_since_frame });
  return { kind: 'ok', people };
}
