/** One named bench of `npm run bench` (test/bench/run.ts), run several times and reported as a median. */
export interface Bench {
  name: string;
  /** `--only TEXT` runs the benches whose group contains TEXT. */
  group?: string;
  unit: string;
  /** The target (at most, or at least for a ratio); the line says whether the median meets it. */
  target?: { max: number } | { min: number };
  runs: number;
  warmup?: number;
  /** What the line says of its runs, for a figure taken from an earlier bench's runs; default "[N runs]". */
  label?: string;
  /** Compared with its figure in test/bench/baseline.json (baseline.ts), and recorded there by --record-baseline. */
  baseline?: boolean;
  /** Decimals printed; default 1. */
  digits?: number;
  /** One measurement. */
  measure(): Promise<number>;
  /** A line printed after the result (ratios, the sampling window). */
  note?(): string | null;
  /** Runs once after the bench (processes and servers it started). */
  cleanup?(): Promise<void>;
}

/** "ok (target <= 80)", "OVER target <= 80", "UNDER target >= 5"; empty without a target. */
export function verdict(b: Bench, value: number): string {
  if (!b.target) return '';
  if ('max' in b.target)
    return value <= b.target.max ? `ok (target <= ${b.target.max})` : `OVER target <= ${b.target.max}`;
  return value >= b.target.min ? `ok (target >= ${b.target.min})` : `UNDER target >= ${b.target.min}`;
}
