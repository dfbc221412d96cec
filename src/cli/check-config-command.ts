import { EXIT, type ExitCode } from '../shared/exit-codes.js';
import { commandFlags } from './command-flags.js';
import { loadCommandConfig } from './load-command-config.js';

const OPTIONS = {
  config: { type: 'string', short: 'c' },
} as const;

/** `check-config --config F`: validate; the loader's error lists every problem with its key path. */
export async function checkConfigCommand(argv: string[]): Promise<ExitCode> {
  const flags = commandFlags('check-config', argv, OPTIONS);
  const { config, file, warnings } = await loadCommandConfig('check-config', flags.config);
  process.stdout.write(
    `${file}: ok (${config.displays.length} display${config.displays.length === 1 ? '' : 's'}: ` +
      `${config.displays.map((d) => d.id).join(', ')}; ${warnings.length} warning${warnings.length === 1 ? '' : 's'})\n`,
  );
  return EXIT.OK;
}
