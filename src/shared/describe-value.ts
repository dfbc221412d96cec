import { inspect } from 'node:util';

/**
 * A value as a user wrote it, short: what an error message says it got. Never throws (a BigInt, a cycle, a deep
 * object), unlike JSON.stringify.
 */
export function describeValue(input: unknown, max = 40): string {
  const text =
    typeof input === 'string'
      ? JSON.stringify(input)
      : inspect(input, { depth: 1, breakLength: Infinity, maxArrayLength: 4, maxStringLength: max });
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
