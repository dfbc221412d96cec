import { rareScheduleWarnings } from '../budget/plan-warnings.js';
import { ConfigError } from '../config/load.js';
import { EXIT, type ExitCode } from '../shared/exit-codes.js';
import { commandFlags } from './command-flags.js';
import { listenProblem } from './listen-probe.js';
import { loadCommandConfig } from './load-command-config.js';

const OPTIONS = {
  config: { type: 'string', short: 'c' },
} as const;

/** Said after the problem when an outfit-display holds `http.listen`: the daemon running, this config's or another's. */
function heldByDaemon(listen: string): string {
  return (
    `note: ${listen} answers as an outfit-display (its /healthz): a daemon runs there, with this config or another, and ` +
    '`run` cannot listen beside it. Stop that daemon or choose another port; to apply an edited config to the daemon ' +
    'that holds the port, reload it (systemctl reload outfit-display): a reload keeps the running config when the new ' +
    'one has problems\n'
  );
}

/**
 * `check-config --config F`: validate; the loader's error lists every problem with its key path. Then what only
 * `run` met before: `http.listen` tried (listen-probe.ts), a port taken whoever holds it, and a schedule that fires
 * less than once a year.
 */
export async function checkConfigCommand(argv: string[]): Promise<ExitCode> {
  const flags = commandFlags('check-config', argv, OPTIONS);
  const { config, file, warnings } = await loadCommandConfig('check-config', flags.config);
  const listen = config.http === undefined ? null : await listenProblem(config.http.listen);
  if (listen !== null) {
    const err = new ConfigError(file, [listen.error.message]);
    if (!listen.heldByOutfitDisplay) throw err;
    // The problem is run's own line, word for word; what holds the port comes after it.
    process.stderr.write(`${err.message}\n${heldByDaemon(config.http?.listen ?? '')}`);
    return EXIT.USAGE;
  }
  const rare = rareScheduleWarnings(config, Date.now());
  for (const w of rare) process.stderr.write(`warning: ${w}\n`);
  const n = warnings.length + rare.length;
  process.stdout.write(
    `${file}: ok (${config.displays.length} display${config.displays.length === 1 ? '' : 's'}: ` +
      `${config.displays.map((d) => d.id).join(', ')}; ${n} warning${n === 1 ? '' : 's'})\n`,
  );
  return EXIT.OK;
}
