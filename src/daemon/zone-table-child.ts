import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../shared/package-root.js';
import { ZoneTableSchema } from '../store/zone-table-schema.js';
import type { ZoneTable } from '../time/zone-table.js';

const DAY_MS = 86_400_000;
const YEAR_MS = 365.2425 * DAY_MS;

export interface ZoneTableChildOptions {
  /** The zone (the config's `timezone`). */
  zone: string;
  /** Now, ms: the table holds the years around it (SPAN_BEFORE_YEARS, SPAN_AFTER_YEARS). */
  now: number;
  /** The program and its arguments, the zone-table's appended; default this node on dist/cli.js. */
  command?: { file: string; args: string[] };
  /** The child's environment; default this process's (`run` passes it without the secrets, as to the render process). */
  env?: NodeJS.ProcessEnv;
  /** How long the child may take before it is killed; default 20 s (it took 0.2 to 0.4 s on the test machine). */
  timeoutMs?: number;
}

/**
 * The span: the ledger's periods, the last good answer's times and the schedule look a few years back and ahead at
 * most. An instant outside it is read from Intl in this process, as before tables (correct, only costlier).
 */
const SPAN_BEFORE_YEARS = 5;
const SPAN_AFTER_YEARS = 15;

/**
 * The zone's table (time/zone-table.ts), made by Intl in a child process of this same node binary (the hidden
 * `zone-table` command), so that this process never builds a formatter of its own. Rejects with what went wrong
 * (the child failed, took too long, or wrote something that is not a table of this zone and span).
 */
export async function loadZoneTable(opts: ZoneTableChildOptions): Promise<ZoneTable> {
  const from = Math.floor((opts.now - SPAN_BEFORE_YEARS * YEAR_MS) / 1000) * 1000;
  const to = Math.floor((opts.now + SPAN_AFTER_YEARS * YEAR_MS) / 1000) * 1000;
  const cmd = opts.command ?? { file: process.execPath, args: [join(packageRoot(), 'dist/cli.js')] };
  const { stdout } = await promisify(execFile)(cmd.file, [...cmd.args, 'zone-table', opts.zone, String(from), String(to)], {
    timeout: opts.timeoutMs ?? 20_000,
    ...(opts.env !== undefined && { env: opts.env }),
    maxBuffer: 1 << 20,
    encoding: 'utf8',
  });
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    throw new Error(`the zone-table process wrote no JSON (${stdout.length} bytes)`);
  }
  const parsed = ZoneTableSchema.safeParse(json);
  if (!parsed.success) throw new Error(`the zone-table process wrote no table: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'table'} ${i.message}`).join('; ')}`);
  const table = parsed.data;
  if (table.zone !== opts.zone || table.from !== from || table.to !== to) {
    throw new Error(`the zone-table process wrote the table of ${table.zone} over [${table.from}, ${table.to}), not of ${opts.zone} over [${from}, ${to})`);
  }
  return table;
}
