import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import { KeyRejectedError } from './api/errors.js';
import { formatPlan, overBudget, planConfig } from './budget/planner.js';
import { ConfigError, loadConfig, type LoadedConfig } from './config/load.js';
import { buildDaemon } from './daemon.js';
import { Service } from './service.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { runSimulateCommand, SIMULATE_OPTIONS, type SimulateFlags } from '../display/firmware/simulate-command.js';
import { createLogger, errorFields } from './logging.js';
import { GlyphWarnings } from './render/glyph-warnings.js';
import { loadPanel } from './render/panels.js';
import { renderRecommendationFile } from './render/render-file.js';
import { pairCommand, PairUsageError } from './publish/trmnl-pair-command.js';
import { BILLING_MODES, isBillingMode } from './service-sim/billing.js';
import { DEMO_API_KEY, startServiceSim } from './service-sim/server.js';

const USAGE = `outfit-display: what to wear today, on an e-ink display

Usage:
  outfit-display run --config F                        the daemon
  outfit-display once --config F [--display ID]        one cycle: fetch, render, publish
  outfit-display plan --config F                       calls and credits per day and month against the budget
  outfit-display render --config F --input REC.json [--display ID] --out FILE
                                                       render a saved Recommendation offline (.png, .bmp, .bin;
                                                       .json: what the frame shows, with garments and sizes)
  outfit-display check-config --config F               validate; print every problem with its key path
  outfit-display pair --config F [--display ID | --mac MAC] [--minutes N]
                                                       let TRMNL devices fetch their token for N minutes (5)
  outfit-display simulate --config F --display ID [--wakes N] [--out DIR] [--web]
        [--via http|trmnl|mqtt] [--speed X] [--max-sleep S] [--interval S] [--url URL] [--mac MAC]
        [--mqtt-url URL] [--web-port N] [--max-image-bytes N]
                                                       the firmware simulator against a running daemon
  outfit-display service-sim [--port N] [--host H] [--credits N] [--rate-limit N]
        [--billing success|every-200|every-request]
                                                       the simulated outfit service on its own; --credits: the
                                                       demo key's balance (default 1000000); --rate-limit: requests
                                                       a minute (default 60); --billing: which requests are billed:
                                                       only a good answer (success, the default), every success
                                                       body produced even if it then broke or the client left
                                                       (every-200), or every request with a valid key that reached
                                                       an endpoint, whatever the answer (every-request)

Exit codes: 0 ok, 1 failure, 2 bad usage or config, 3 API key rejected, 4 budget used up.`;

class UsageError extends Error {}

interface Args extends SimulateFlags {
  command: string;
  config?: string;
  display?: string;
  input?: string;
  out?: string;
  port?: string;
  host?: string;
  credits?: string;
  'rate-limit'?: string;
  billing?: string;
  wakes?: string;
  web?: boolean;
  minutes?: string;
}

function parse(argv: string[]): Args {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      config: { type: 'string', short: 'c' },
      display: { type: 'string', short: 'd' },
      input: { type: 'string', short: 'i' },
      out: { type: 'string', short: 'o' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      credits: { type: 'string' },
      'rate-limit': { type: 'string' },
      billing: { type: 'string' },
      wakes: { type: 'string' },
      web: { type: 'boolean' },
      minutes: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      ...SIMULATE_OPTIONS,
    },
  });
  if (values.help || positionals.length === 0) throw new UsageError('');
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
  const { help, ...rest } = values;
  return { command: positionals[0] as string, ...rest };
}

function need<T>(value: T | undefined, flag: string, command: string): T {
  if (value === undefined) throw new UsageError(`${command} needs ${flag}`);
  return value;
}

async function load(args: Args, logger?: Logger): Promise<LoadedConfig> {
  const loaded = await loadConfig(need(args.config, '--config F', args.command));
  for (const w of loaded.warnings) {
    if (logger) logger.warn({ warning: w }, 'config warning');
    else process.stderr.write(`warning: ${w}\n`);
  }
  return loaded;
}

function daemonLogger(loaded: LoadedConfig): Logger {
  return createLogger(loaded.config.log_level);
}

async function cmdOnce(args: Args): Promise<ExitCode> {
  const loaded = await load(args);
  if (args.display !== undefined && !loaded.config.displays.some((d) => d.id === args.display)) {
    throw new UsageError(`no display with id "${args.display}" in ${loaded.file}`);
  }
  const logger = daemonLogger(loaded);
  const daemon = await buildDaemon({ loaded, logger });
  try {
    const results = await daemon.runOnce(args.display);
    const all = [...results.values()];
    if (all.some((r) => r.error instanceof KeyRejectedError)) {
      const err = all.find((r) => r.error instanceof KeyRejectedError)?.error;
      process.stderr.write(`API key rejected: ${err?.serviceMessage ?? err?.message ?? ''}\n`);
      return EXIT.KEY_REJECTED;
    }
    if (all.some((r) => r.outcome === 'budget_exhausted')) return EXIT.BUDGET_EXHAUSTED;
    if (all.some((r) => r.outcome === 'failed' || r.outcome === 'deferred' || !r.published)) return EXIT.FAILURE;
    return EXIT.OK;
  } finally {
    await daemon.stop();
    logger.flush();
  }
}

async function cmdRun(args: Args): Promise<ExitCode> {
  const loaded = await load(args);
  const logger = daemonLogger(loaded);
  const service = new Service({ loaded, logger });
  // The daemon lives until a signal stops it, not until its timers run out (the budget's timers are unref'd).
  const keepAlive = setInterval(() => undefined, 2 ** 30);
  // Signals are wired before the start, so that a SIGTERM during a slow first cycle still stops cleanly.
  const stopped = new Promise<ExitCode>((resolve) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'stopping');
      service.stop().then(
        () => {
          logger.info('stopped');
          resolve(EXIT.OK);
        },
        (err: unknown) => {
          logger.error(errorFields(err), 'stop failed');
          resolve(EXIT.FAILURE);
        },
      );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  process.on('SIGHUP', () => {
    logger.info({ signal: 'SIGHUP' }, 'reloading the config');
    service.reload().catch((err: unknown) => logger.error(errorFields(err), 'reload failed'));
  });
  try {
    await service.start();
  } catch (err) {
    await service.stop();
    clearInterval(keepAlive);
    throw err;
  }
  logger.info({ displays: loaded.config.displays.map((d) => d.id) }, 'daemon started');
  const code = await stopped;
  clearInterval(keepAlive);
  logger.flush();
  return code;
}

async function cmdPlan(args: Args): Promise<ExitCode> {
  const { config } = await load(args);
  const report = planConfig(config);
  process.stdout.write(`${formatPlan(report)}\n`);
  return overBudget(report) ? EXIT.FAILURE : EXIT.OK;
}

async function cmdRender(args: Args): Promise<ExitCode> {
  const loaded = await load(args);
  const { config } = loaded;
  const id = args.display ?? config.displays[0]?.id;
  const display = config.displays.find((d) => d.id === id);
  if (!display) throw new UsageError(`no display with id "${id}" in ${args.config}`);
  const { missingGlyphs } = await renderRecommendationFile({
    inputPath: need(args.input, '--input REC.json', 'render'),
    outPath: need(args.out, '--out FILE', 'render'),
    panel: loadPanel(display.panel),
    displayName: display.name ?? display.id,
    timezone: config.timezone,
    rotation: display.rotation,
    dither: display.dither,
    locale: loaded.locales?.get(display.id),
  });
  if (missingGlyphs.length > 0) {
    const logger = createLogger(config.log_level);
    new GlyphWarnings(logger).report(missingGlyphs, { display: display.id });
    logger.flush();
  }
  return EXIT.OK;
}

async function cmdCheckConfig(args: Args): Promise<ExitCode> {
  const { config, file, warnings } = await load(args);
  process.stdout.write(
    `${file}: ok (${config.displays.length} display${config.displays.length === 1 ? '' : 's'}: ` +
      `${config.displays.map((d) => d.id).join(', ')}; ${warnings.length} warning${warnings.length === 1 ? '' : 's'})\n`,
  );
  return EXIT.OK;
}

async function cmdPair(args: Args): Promise<ExitCode> {
  const loaded = await load(args);
  try {
    const lines = await pairCommand(loaded, { display: args.display, mac: args.mac, minutes: args.minutes, now: Date.now() });
    process.stdout.write(`${lines.join('\n')}\n`);
    return EXIT.OK;
  } catch (err) {
    if (err instanceof PairUsageError) throw new UsageError(err.message);
    throw err;
  }
}

async function cmdServiceSim(args: Args): Promise<ExitCode> {
  const port = args.port === undefined ? 8780 : Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0..65535`);
  const credits = args.credits === undefined ? 1_000_000 : Number(args.credits);
  if (!Number.isInteger(credits) || credits < 0) throw new UsageError(`--credits must be a whole number >= 0 (got ${args.credits})`);
  const rate = args['rate-limit'] === undefined ? 60 : Number(args['rate-limit']);
  if (!Number.isInteger(rate) || rate < 1) throw new UsageError(`--rate-limit must be a whole number >= 1 (got ${args['rate-limit']})`);
  const billing = args.billing ?? 'success';
  if (!isBillingMode(billing)) throw new UsageError(`--billing must be one of ${BILLING_MODES.join(', ')} (got ${billing})`);
  const sim = await startServiceSim({
    host: args.host ?? '127.0.0.1',
    port,
    keys: { [DEMO_API_KEY]: { credits } },
    ratePerMinute: rate,
    billing,
  });
  process.stdout.write(
    `simulated outfit service at ${sim.url}\ndemo API key: ${DEMO_API_KEY}\n` +
      `credits: ${credits}, rate limit: ${rate}/min, billing: ${billing}\n`,
  );
  return new Promise<ExitCode>((resolve) => {
    const stop = (): void => void sim.close().then(() => resolve(EXIT.OK));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}

async function cmdSimulate(args: Args): Promise<ExitCode> {
  const loaded = await load(args);
  need(args.display, '--display ID', 'simulate');
  const ac = new AbortController();
  const abort = (): void => ac.abort();
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  try {
    return await runSimulateCommand(loaded, args, {
      log: (line) => process.stdout.write(`${line}\n`),
      error: (line) => process.stderr.write(`${line}\n`),
      signal: ac.signal,
    });
  } finally {
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
  }
}

const COMMANDS: Record<string, (args: Args) => Promise<ExitCode>> = {
  run: cmdRun,
  once: cmdOnce,
  plan: cmdPlan,
  render: cmdRender,
  'check-config': cmdCheckConfig,
  pair: cmdPair,
  'service-sim': cmdServiceSim,
  simulate: cmdSimulate,
};

export async function main(argv: string[]): Promise<ExitCode> {
  let args: Args;
  try {
    args = parse(argv);
  } catch (err) {
    const msg = err instanceof UsageError ? err.message : (err as Error).message;
    process.stderr.write(`${msg ? `error: ${msg}\n\n` : ''}${USAGE}\n`);
    return msg ? EXIT.USAGE : EXIT.OK;
  }
  const command = COMMANDS[args.command];
  if (!command) {
    process.stderr.write(`error: unknown command "${args.command}"\n\n${USAGE}\n`);
    return EXIT.USAGE;
  }
  try {
    return await command(args);
  } catch (err) {
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
