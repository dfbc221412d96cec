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

/**
 * `simulate --config F --display ID [...]`: the firmware simulator against a running daemon, until it ends; with
 * `--day`, first a day measured against a daemon of the config started here on a virtual clock (day-server.ts).
 */
export async function simulateCommand(argv: string[]): Promise<ExitCode> {
  const flags = commandFlags('simulate', argv, OPTIONS);
  const loaded = await loadCommandConfig('simulate', flags.config);
  need(flags.display, '--display ID', 'simulate');
  const ac = new AbortController();
  const abort = (): void => ac.abort();
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  try {
    const io = {
      log: (line: string) => process.stdout.write(`${line}\n`),
      error: (line: string) => process.stderr.write(`${line}\n`),
      signal: ac.signal,
    };
    if (flags.day !== true) return await runSimulateCommand(loaded, flags, io);
    // --day: the day is measured against a daemon of the config started here (the simulator may not start one).
    // Its log is its errors only, on stderr; the glyphs an earlier render drew are reused.
    const [{ dayServer }, { createLogger }, { withGlyphDiskCache }, { secretValues }, { default: pino }] =
      await Promise.all([
        import('./day-server.js'),
        import('../log/logging.js'),
        import('../render/glyph-disk-cache.js'),
        import('../config/secrets.js'),
        import('pino'),
      ]);
    const logger = createLogger({
      level: 'error',
      secrets: secretValues(loaded.secrets),
      destination: pino.destination({ fd: 2, sync: true }),
    });
    return await withGlyphDiskCache(() =>
      runSimulateCommand(loaded, flags, { ...io, dayServer: dayServer({ loaded, logger }) }),
    );
  } finally {
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
  }
}
