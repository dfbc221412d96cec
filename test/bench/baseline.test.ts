import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  baselineNote,
  movedPastBaseline,
  readBaseline,
  withRecorded,
  type Baseline,
  type BaselineEntry,
} from './baseline.js';
import { COLD_RENDER_CPU_LINE, COLD_RENDER_LINE as COLD, COLD_RENDER_PEAK_LINE as RSS } from './cold-render.js';

/** The bench's comparison with test/bench/baseline.json (npm run bench), on hand-made baselines. */

const entry = (median: number, unit: string, node = 'v20.20.2'): BaselineEntry => ({
  median,
  unit,
  recorded: '2026-12-02',
  commit: 'abc1234',
  node,
  machine: '2 x Test CPU (x64)',
});
const base: Baseline = { lines: { [COLD]: entry(250, 'ms'), [RSS]: entry(90, 'MB') } };

describe('baselineNote', () => {
  it('gives the ratio and leaves a move within 10 % unflagged', () => {
    const note = baselineNote(base, COLD, 270, 'ms', 'v20.1.0');
    expect(note).toContain('x1.08');
    expect(note).toContain('250.0 ms on 2026-12-02, abc1234, Node v20.20.2');
    expect(movedPastBaseline(note)).toBe(false);
  });

  it('flags a median more than 10 % above its baseline, and one more than 10 % below', () => {
    const slower = baselineNote(base, COLD, 295, 'ms', 'v20.20.2');
    expect(slower).toContain('ABOVE BASELINE by 18 %');
    expect(movedPastBaseline(slower)).toBe(true);
    const lighter = baselineNote(base, RSS, 72, 'MB', 'v20.20.2');
    expect(lighter).toContain('BELOW BASELINE by 20 %');
    expect(movedPastBaseline(lighter)).toBe(true);
  });

  it('compares a line on the Node major it was recorded on only, and in its unit only', () => {
    const other = baselineNote(base, COLD, 500, 'ms', 'v22.12.0');
    expect(other).toContain('not compared on Node v22.12.0');
    expect(movedPastBaseline(other)).toBe(false);
    expect(movedPastBaseline(baselineNote(base, COLD, 0.5, 's', 'v20.20.2'))).toBe(false);
  });

  it('says how to record a line that has no baseline yet', () => {
    const note = baselineNote({ lines: {} }, COLD, 250, 'ms');
    expect(note).toContain('--record-baseline');
    expect(movedPastBaseline(note)).toBe(false);
  });
});

describe('withRecorded', () => {
  it('replaces the lines it recorded and keeps the others', () => {
    const next = withRecorded(base, { [COLD]: entry(230, 'ms', 'v20.21.0') });
    expect(next.lines[COLD]).toEqual(entry(230, 'ms', 'v20.21.0'));
    expect(next.lines[RSS]).toEqual(base.lines[RSS]);
  });
});

describe('readBaseline', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const file = (text: string): string => {
    dir = mkdtempSync(join(tmpdir(), 'outfit-baseline-'));
    const f = join(dir, 'baseline.json');
    writeFileSync(f, text);
    return f;
  };

  it("reads the committed baseline, which holds the cold render's time, CPU time and peak memory", () => {
    const committed = readBaseline();
    expect(committed.lines[COLD]?.unit).toBe('ms');
    expect(committed.lines[COLD_RENDER_CPU_LINE]?.unit).toBe('ms');
    expect(committed.lines[RSS]?.unit).toBe('MB');
  });

  it('takes a missing file for an empty baseline', () => {
    expect(readBaseline('/nonexistent/baseline.json')).toEqual({ lines: {} });
  });

  it('names the file and the field of a malformed one', () => {
    expect(() => readBaseline(file('{ "lines": { "x": { "median": -1 } } }'))).toThrow(/baseline\.json: .*median/);
    expect(() => readBaseline(file('not json'))).toThrow(/baseline\.json: not JSON/);
  });
});
