import { EXIT, type ExitCode } from '../shared/exit-codes.js';
import { openPairing, PairUsageError } from '../trmnl/open-pairing.js';
import { commandFlags } from './command-flags.js';
import { loadCommandConfig } from './load-command-config.js';
import { UsageError } from './usage-error.js';

const OPTIONS = {
  config: { type: 'string', short: 'c' },
  display: { type: 'string', short: 'd' },
  mac: { type: 'string' },
  minutes: { type: 'string' },
} as const;

/** `pair --config F [--display ID | --mac MAC] [--minutes N]`: let TRMNL devices fetch their token for N minutes. */
export async function pairCommand(argv: string[]): Promise<ExitCode> {
  const flags = commandFlags('pair', argv, OPTIONS);
  const loaded = await loadCommandConfig('pair', flags.config);
  try {
    const lines = await openPairing(loaded, {
      display: flags.display,
      mac: flags.mac,
      minutes: flags.minutes,
      now: Date.now(),
    });
    process.stdout.write(`${lines.join('\n')}\n`);
    return EXIT.OK;
  } catch (err) {
    if (err instanceof PairUsageError) throw new UsageError(err.message);
    throw err;
  }
}
