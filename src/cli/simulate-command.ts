import { runSimulateCommand, SIMULATE_OPTIONS } from '../../display/firmware/simulate-command.js';
import type { ExitCode } from '../shared/exit-codes.js';
import { commandFlags } from './command-flags.js';
import { loadCommandConfig } from './load-command-config.js';
import { need } from './usage-error.js';

const OPTIONS = {
  config: { type: 'string', short: 'c' },
  display: { type: 'string', short: 'd' },
  wakes: { type: 'string' },
  out: { type: 'string', short: 'o' },
  web: { type: 'boolean' },
  ...SIMULATE_OPTIONS,
} as const;

/** `simulate --config F --display ID [...]`: the firmware simulator against a running daemon, until it ends. */
export async function simulateCommand(argv: string[]): Promise<ExitCode> {
  const flags = commandFlags('simulate', argv, OPTIONS);
  const loaded = await loadCommandConfig('simulate', flags.config);
  need(flags.display, '--display ID', 'simulate');
  const ac = new AbortController();
  const abort = (): void => ac.abort();
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  try {
    return await runSimulateCommand(loaded, flags, {
      log: (line) => process.stdout.write(`${line}\n`),
      error: (line) => process.stderr.write(`${line}\n`),
      signal: ac.signal,
    });
  } finally {
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
  }
}
