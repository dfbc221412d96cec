import { rareScheduleWarnings } from '../budget/planner.js';
import { ConfigError } from '../config/load.js';
import { EXIT, type ExitCode } from '../shared/exit-codes.js';
import { commandFlags } from './command-flags.js';
import { listenProblem } from './listen-probe.js';
import { loadCommandConfig } from './load-command-config.js';

const OPTIONS = {
  config: { type: 'string', short: 'c' },
} as const;

/**
 * `check-config --config F`: validate; the loader's error lists every problem with its key path. Then what only
 * `run` met before: `http.listen` tried (listen-probe.ts), and a schedule that fires less than once a year.
 */
export async function checkConfigCommand(argv: string[]): Promise<ExitCode> {
  const flags = commandFlags('check-config', argv, OPTIONS);
  const { config, file, warnings } = await loadCommandConfig('check-config', flags.config);
  const listen = config.http === undefined ? null : await listenProblem(config.http.listen);
  if (listen !== null) throw new ConfigError(file, [listen.message]);
  const rare = rareScheduleWarnings(config, Date.now());
  for (const w of rare) process.stderr.write(`warning: ${w}\n`);
  const n = warnings.length + rare.length;
  process.stdout.write(
    `${file}: ok (${config.displays.length} display${config.displays.length === 1 ? '' : 's'}: ` +
      `${config.displays.map((d) => d.id).join(', ')}; ${n} warning${n === 1 ? '' : 's'})\n`,
  );
  return EXIT.OK;
}
