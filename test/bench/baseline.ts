import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus } from 'node:os';
import { join } from 'node:path';
import { z } from '../../src/shared/zod.js';
import { describeIssues } from '../../src/shared/describe-issue.js';
import { packageRoot } from '../../src/shared/package-root.js';

/**
 * The bench's stored baseline, `test/bench/baseline.json`: for each line marked `baseline` (bench.ts), its median
 * as recorded on the bench machine, with the day, the commit, the Node and the machine. `npm run bench` prints each
 * such line's ratio to it and flags a move of more than BASELINE_TOLERANCE either way, so that a change that makes
 * `render` slower or heavier is seen in the bench run after it lands, not found later. A report, not a test: the
 * figures are the machine's as much as the code's. `npm run bench -- --record-baseline` writes the lines it ran
 * into the file (a change that is meant to cost something records its new figures with it).
 */

/** How far a median may move from its baseline, either way, before the line is flagged. */
export const BASELINE_TOLERANCE = 0.1;

export const BASELINE_FILE = join(packageRoot(), 'test/bench/baseline.json');

const entrySchema = z.object({
  /** The line's median. */
  median: z.number().positive(),
  unit: z.string().min(1),
  /** The day it was recorded, YYYY-MM-DD. */
  recorded: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** The commit measured; "+changes" after it when the tree had uncommitted changes. */
  commit: z.string().min(1),
  /** process.version of the Node that ran it; a line is compared on the same major only. */
  node: z.string().regex(/^v\d+\./),
  /** The CPUs: count, model and architecture. */
  machine: z.string().min(1),
});
const fileSchema = z.object({ lines: z.record(z.string(), entrySchema) });

export type BaselineEntry = z.infer<typeof entrySchema>;
export type Baseline = z.infer<typeof fileSchema>;

/** The file's baselines; an empty set when there is no file. A malformed file is an error naming what is wrong. */
export function readBaseline(file = BASELINE_FILE): Baseline {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: {} };
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not JSON (${(err as Error).message})`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${file}: ${describeIssues(parsed.error).join('; ')}`);
  return parsed.data;
}

const major = (version: string): string => version.split('.')[0]!;

/**
 * The line printed under a baseline line: its ratio to the baseline, flagged `ABOVE BASELINE` or `BELOW BASELINE`
 * past the tolerance; or why it is not compared (no baseline yet, another unit, another Node major).
 */
export function baselineNote(
  base: Baseline,
  name: string,
  median: number,
  unit: string,
  node = process.version,
): string {
  const b = base.lines[name];
  if (!b) return '  baseline: none recorded for this line (npm run bench -- --only "cold 800x480" --record-baseline)';
  const of = `${b.median.toFixed(1)} ${b.unit} on ${b.recorded}, ${b.commit}, Node ${b.node}`;
  if (b.unit !== unit) return `  baseline: ${of}, in another unit: not compared`;
  if (major(b.node) !== major(node)) return `  baseline: ${of}: not compared on Node ${node}`;
  const ratio = median / b.median;
  const pct = Math.round(Math.abs(ratio - 1) * 100);
  const flag =
    ratio > 1 + BASELINE_TOLERANCE
      ? `ABOVE BASELINE by ${pct} %`
      : ratio < 1 - BASELINE_TOLERANCE
        ? `BELOW BASELINE by ${pct} %`
        : `within ${BASELINE_TOLERANCE * 100} %`;
  return `  baseline: ${of}: x${ratio.toFixed(2)}, ${flag}`;
}

/** Whether a note says the line moved past the tolerance. */
export const movedPastBaseline = (note: string): boolean => / (ABOVE|BELOW) BASELINE /.test(note);

/** The file with `lines` recorded over their earlier figures; other lines stay as they were. */
export function withRecorded(base: Baseline, lines: Record<string, BaselineEntry>): Baseline {
  const merged = { ...base.lines, ...lines };
  return {
    lines: Object.fromEntries(
      Object.keys(merged)
        .sort()
        .map((k) => [k, merged[k]!]),
    ),
  };
}

/** What a recording says of where it was made: the commit, this Node, this machine, today. */
export function recordingContext(root = packageRoot()): Omit<BaselineEntry, 'median' | 'unit'> {
  const git = (...args: string[]): string | null => {
    const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
    return r.status === 0 ? r.stdout.trim() : null;
  };
  const hash = git('rev-parse', '--short', 'HEAD') ?? 'unknown';
  const dirty = (git('status', '--porcelain', '--untracked-files=no') ?? '') !== '';
  const cpu = cpus();
  return {
    recorded: new Date().toISOString().slice(0, 10),
    commit: dirty ? `${hash}+changes` : hash,
    node: process.version,
    machine: `${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'} (${arch()})`,
  };
}

export function writeBaseline(base: Baseline, file = BASELINE_FILE): void {
  writeFileSync(file, `${JSON.stringify(base, null, 2)}\n`);
}
