import { EXIT, type ExitCode } from '../shared/exit-codes.js';
import { envWithoutSecrets, secretValues } from '../config/secrets.js';
import { RenderProcess } from '../render/render-process.js';
import { systemClock } from '../time/clock.js';
import { createLogger, logFormat } from '../log/logging.js';
import { Service } from '../daemon/service.js';
import { commandFlags } from './command-flags.js';
import { loadCommandConfig } from './load-command-config.js';
import { whereToLook } from './where-to-look.js';

/**
 * The longest a stop may take from the signal to the end of the process: then it exits anyway (E_STOP_TIMEOUT). Under
 * systemd's TimeoutStopSec (30 s in the unit), so that the daemon ends on its own, with its log line, before a SIGKILL.
 */
const STOP_DEADLINE_MS = 20_000;

const OPTIONS = {
  config: { type: 'string', short: 'c' },
} as const;

/** `run --config F`: the daemon, until SIGTERM or SIGINT; SIGHUP reloads the config. */
export async function runCommand(argv: string[]): Promise<ExitCode> {
  const flags = commandFlags('run', argv, OPTIONS);
  const loaded = await loadCommandConfig('run', flags.config);
  const logger = createLogger({ level: loaded.config.log_level, secrets: secretValues(loaded.secrets) });
  // A person at a terminal learns first where to look; the journal's JSON lines stay the only thing on stdout.
  const watched = logFormat(process.env, process.stdout.isTTY === true) === 'pretty';
  if (watched) process.stdout.write(`${whereToLook(loaded.config)}\n`);
  // The frames are drawn in a child that lives only while there are frames to draw (render-process.ts): the idle
  // daemon holds no canvas. It gets no secret: it draws, and needs none.
  const renderer = new RenderProcess({
    clock: systemClock,
    env: envWithoutSecrets(process.env, loaded.secrets),
    logger: logger.child({ part: 'render' }),
  });
  const service = new Service({ loaded, logger, draw: renderer.draw });
  // The daemon lives until a signal stops it, not until its timers run out (the budget's timers are unref'd).
  const keepAlive = setInterval(() => undefined, 2 ** 30);
  // Signals are wired before the start, so that a SIGTERM during a slow first cycle still stops cleanly.
  const stopped = new Promise<ExitCode>((resolve) => {
    let stopping = false;
    let code: ExitCode | null = null;
    const done = (c: ExitCode): void => {
      code = c;
      resolve(c);
    };
    const stop = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'stopping');
      // The backstop: unref'd, so it never keeps a process alive that would end anyway.
      setTimeout(() => {
        if (code === null) {
          const err = Object.assign(
            new Error(`the stop did not finish within ${STOP_DEADLINE_MS} ms; exiting without it`),
            { code: 'E_STOP_TIMEOUT' },
          );
          logger.error({ err }, 'stop timed out');
        } else {
          logger.warn(
            { code: 'W_STOP_LINGERING', waitedMs: STOP_DEADLINE_MS },
            'stopped, but something still held the process; exiting',
          );
        }
        logger.flush();
        process.exit(code ?? EXIT.FAILURE);
      }, STOP_DEADLINE_MS).unref();
      // The render process last: a cycle still drawing when the stop came ends before it goes.
      service
        .stop()
        .finally(() => renderer.close())
        .then(
          () => {
            logger.info('stopped');
            done(EXIT.OK);
          },
          (err: unknown) => {
            logger.error({ err }, 'stop failed');
            done(EXIT.FAILURE);
          },
        );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  process.on('SIGHUP', () => {
    logger.info({ signal: 'SIGHUP' }, 'reloading the config');
    service.reload().catch((err: unknown) => logger.error({ err }, 'reload failed'));
  });
  try {
    await service.start();
  } catch (err) {
    await service.stop();
    await renderer.close();
    clearInterval(keepAlive);
    throw err;
  }
  logger.info({ displays: loaded.config.displays.map((d) => d.id) }, 'daemon started');
  const code = await stopped;
  clearInterval(keepAlive);
  logger.flush();
  return code;
}
