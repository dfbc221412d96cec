/** Bad usage (a flag missing, unknown or not for this command): the CLI prints the message and exits 2. */
export class UsageError extends Error {}

/** The value of a flag the command cannot do without. */
export function need<T>(value: T | undefined, flag: string, command: string): T {
  if (value === undefined) throw new UsageError(`${command} needs ${flag}`);
  return value;
}
