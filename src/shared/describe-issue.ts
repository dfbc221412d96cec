import type { z } from './zod.js';
import { describeValue } from './describe-value.js';

/**
 * The one formatter of zod issues, for every file we validate (the config, add-on options, panels, locale files,
 * render inputs, the ledger, the last-good store, simulator faults). Not `z.prettifyError`: its output is
 * "✖ message\n  → at displays[0].rotation", while our errors (and the docs' examples and the tests) are one line
 * per problem that starts with the key path as the user writes it: `displays[0].rotation: must be one of 0, 90, 180,
 * 270 (got 45)`.
 */

/** `displays[1].lat`: the key path as a user reads it in the YAML or JSON. */
export function formatPath(p: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const seg of p) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out === '' ? '(top level)' : out;
}

/**
 * The allowed values of an enum, a literal, or a union of literals (`0 | 90 | 180 | 270`), or null for any other
 * issue: one rule for every such key in a schema, so each error names what it accepts.
 */
function allowedValues(issue: z.core.$ZodIssue): unknown[] | null {
  if (issue.code === 'invalid_value') return issue.values;
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return null;
  const values: unknown[] = [];
  for (const branch of issue.errors) {
    const only = branch.length === 1 ? branch[0] : undefined;
    if (only?.code !== 'invalid_value' || only.path.length > 0) return null;
    values.push(...only.values);
  }
  return values;
}

/** What is wrong, without the path: `required`, `must be a number`, `must be one of 0, 90 (got 45)`, zod's message. */
export function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'required';
  if (issue.code === 'invalid_type')
    return `must be ${issue.expected === 'object' ? 'a mapping' : `a ${issue.expected}`}`;
  const values = allowedValues(issue);
  if (values !== null) {
    const got = 'input' in issue && issue.input !== undefined ? ` (got ${describeValue(issue.input)})` : '';
    return `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}${got}`;
  }
  return issue.message;
}

/** One line per problem, path first; an unknown-keys issue gives a line per key. */
export function describeIssue(issue: z.core.$ZodIssue): string[] {
  if (issue.code === 'unrecognized_keys')
    return issue.keys.map((k) => `${formatPath([...issue.path, k])}: unknown key`);
  return [`${formatPath(issue.path)}: ${issueText(issue)}`];
}

/** Every problem of a failed parse, one line each. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.flatMap(describeIssue);
}
