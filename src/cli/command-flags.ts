import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** --help is taken by every command: `outfit-display render --help` prints the usage, as before. */
const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/** What parseArgs gives for a table: a string or a boolean per flag, absent when not given. */
export type FlagValues<O extends Options> = { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string };

/** Asked for the usage text (`--help` after a command): exit 0 with the usage, no error. */
export class HelpRequested extends Error {}

/**
 * The flags of one command, from its own options table: a flag that belongs to another command (`once --web`) or to
 * none is a usage error naming the flag and the command, never silently taken.
 */
export function commandFlags<const O extends Options>(command: string, argv: string[], options: O): FlagValues<O> {
  const all = { ...options, ...HELP };
  // A lenient pass first only to name an unknown flag; the strict pass below then checks values and types.
  const { tokens } = parseArgs({ args: argv, options: all, strict: false, allowPositionals: true, tokens: true });
  for (const t of tokens) {
    if (t.kind === 'option' && !(t.name in all)) throw new UsageError(`${command} does not take ${t.rawName}`);
    if (t.kind === 'positional') throw new UsageError(`unexpected argument "${t.value}"`);
  }
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ args: argv, options: all, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new UsageError(`${command}: ${(err as Error).message}`);
  }
  if (values.help === true) throw new HelpRequested();
  return values as FlagValues<O>;
}
