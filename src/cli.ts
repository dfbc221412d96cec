import { EXIT, type ExitCode } from './shared/exit-codes.js';
import { assertCanvasFits } from './shared/native-addon.js';
import { HelpRequested } from './cli/command-flags.js';
import { USAGE } from './cli/usage.js';
import { UsageError } from './cli/usage-error.js';

type Command = (argv: string[]) => Promise<ExitCode>;

/**
 * Each command's module, imported only when that command runs: `render` or `--help` never load the daemon, the
 * simulator, the simulated service, mqtt or the HTTP server (the start of a one-shot command is mostly module loading).
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  run: async () => (await import('./cli/run-command.js')).runCommand,
  once: async () => (await import('./cli/once-command.js')).onceCommand,
  plan: async () => (await import('./cli/plan-command.js')).planCommand,
  render: async () => (await import('./cli/render-command.js')).renderCommand,
  'check-config': async () => (await import('./cli/check-config-command.js')).checkConfigCommand,
  pair: async () => (await import('./cli/pair-command.js')).pairCommand,
  'service-sim': async () => (await import('./cli/service-sim-command.js')).serviceSimCommand,
  simulate: async () => (await import('./cli/simulate-command.js')).simulateCommand,
  panel: async () => (await import('./cli/panel-command.js')).panelCommand,
  // Not in the usage: the daemon starts it to draw its frames (render/render-process.ts).
  'render-worker': async () => (await import('./cli/render-worker-command.js')).renderWorkerCommand,
};

/** The commands that draw frames (`run` through its render process): canvas's addon is checked before they are imported. */
const DRAWS = new Set(['run', 'once', 'render', 'pair', 'simulate', 'render-worker']);

function usage(message: string): ExitCode {
  process.stderr.write(`${message ? `error: ${message}\n\n` : ''}${USAGE}\n`);
  return message ? EXIT.USAGE : EXIT.OK;
}

/** `outfit-display COMMAND [flags]`: the exit code of the command (see EXIT). */
export async function main(argv: string[]): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === undefined || argv.includes('--help') || argv.includes('-h')) return usage('');
  if (name.startsWith('-')) return usage(`the command comes first, then its flags (not "${name}")`);
  const load = COMMANDS[name];
  if (!load) return usage(`unknown command "${name}"`);
  try {
    // An addon built for another Node would crash this one at the first frame: E_NATIVE_ADDON (exit 1) instead.
    if (DRAWS.has(name)) assertCanvasFits();
    return await (
      await load()
    )(rest);
  } catch (err) {
    if (err instanceof HelpRequested) return usage('');
    // Imported here, not at the top: the config loader (yaml, zod) is no part of --help.
    const { ConfigError } = await import('./config/load.js');
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return EXIT.USAGE;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\n`);
      return EXIT.USAGE;
    }
    process.stderr.write(`error: ${(err as Error).message}\n`);
    return EXIT.FAILURE;
  }
}
