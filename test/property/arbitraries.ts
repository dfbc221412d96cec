import fc from 'fast-check';

/** Arbitraries shared by the property tests. */

/**
 * Run counts are bounded so the folder stays well under a minute on two shared cores; PROPERTY_RUNS=10 runs ten
 * times as many for a deeper search. A failure prints its seed and path: pass them back with fc.assert's
 * `{ seed, path }` to replay it.
 */
const FACTOR = ((): number => {
  const f = Number(process.env.PROPERTY_RUNS ?? '1');
  return Number.isFinite(f) && f > 0 ? f : 1;
})();

export function runs(n: number): number {
  return Math.max(1, Math.round(n * FACTOR));
}

/** A test's timeout, scaled like its runs. */
export function timeout(ms: number): number {
  return Math.round(ms * Math.max(1, FACTOR));
}

/** A value at a random place inside `root` replaced, deleted, or joined by an unknown key (or the root replaced). */
export interface Mutation {
  path: number[];
  op: 'replace' | 'delete' | 'add';
  key: string;
  value: unknown;
}

/** Mutations whose new values come from `values`. */
export function mutationsOf(values: fc.Arbitrary<unknown>): fc.Arbitrary<Mutation> {
  return fc.record({
    path: fc.array(fc.nat(), { maxLength: 5 }),
    op: fc.constantFrom('replace', 'delete', 'add'),
    key: fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('__proto__', 'constructor', 'toString', 'id', 'schedule', 'weather'),
    ),
    value: values,
  });
}

/** Mutations with any value at all (Maps, Dates, BigInts, null-prototype objects...). */
export const mutationArb: fc.Arbitrary<Mutation> = mutationsOf(
  fc.oneof(
    fc.anything({
      maxDepth: 2,
      withNullPrototype: true,
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
    }),
    fc.double(),
    fc.string(),
    fc.constantFrom(null, undefined, true, 0, -1, 1e309, '', '  ', 'auto', 'simulated', '*/5 * * * *'),
  ),
);

/** Mutations that keep a value JSON. */
export const jsonMutationArb: fc.Arbitrary<Mutation> = mutationsOf(
  fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(null, true, 0, -1, '', ' ', [], {}, 'NaN', '2026-01-31T07:00:00.000Z'),
  ),
);

const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] => typeof v === 'object' && v !== null;

/** Applies mutations to a deep copy of a JSON-like value (inserted values are copies too: fast-check reuses them). */
export function mutate(root: unknown, mutations: readonly Mutation[]): unknown {
  let copy = structuredClone(root);
  for (const m of mutations) {
    if (m.path.length === 0 && m.op === 'replace') {
      copy = structuredClone(m.value);
      continue;
    }
    let parent: Record<string | number, unknown> | null = null;
    let at: string | number | null = null;
    let cur: unknown = copy;
    for (const seed of m.path) {
      if (!isContainer(cur)) break;
      const keys: Array<string | number> = Array.isArray(cur) ? cur.map((_, i) => i) : Object.keys(cur);
      if (keys.length === 0) break;
      parent = cur as Record<string | number, unknown>;
      at = keys[seed % keys.length]!;
      cur = parent[at];
    }
    const target = parent === null || at === null ? copy : parent[at];
    if (m.op === 'add' && isContainer(target) && !Array.isArray(target)) {
      Object.defineProperty(target, m.key, {
        value: structuredClone(m.value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else if (parent !== null && at !== null) {
      if (m.op === 'delete') delete parent[at];
      else parent[at] = structuredClone(m.value);
    }
  }
  return copy;
}
