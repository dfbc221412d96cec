import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import type { DayServer } from '../../display/firmware/day-run.js';
import { SimulatorSetupError } from '../../display/firmware/simulator-options.js';
import { CronTimes } from '../budget/cron-times.js';
import { resolveSchedules } from '../budget/planner.js';
import type { LoadedConfig } from '../config/load.js';
import { ConfigSchema, type Config } from '../config/schema.js';
import { buildDaemon } from '../daemon/daemon.js';
import { normalizeMac } from '../trmnl/mac.js';

/**
 * The daemon `simulate --day` measures a day against (display/firmware/day-run.ts): the real daemon, built from the
 * config, on the day's virtual clock. What it may not do on a simulation is left out: it buys from the simulated
 * service (never the real one, whatever the config says), keeps its state and frames in a temporary folder, serves
 * HTTP on 127.0.0.1 at a port the OS chooses, and has no MQTT, OpenEPaperLink, webhook or attached panel. It runs
 * the measured display alone, on the schedule the whole config's daemon would give it (`auto` resolved, paced over
 * budget), so that the day is the display's and no other display's drawing slows it. The simulated devices are
 * bound to the display as TRMNL devices paired before the day, with the format and panel of the owner's binding.
 */

export interface DayServerOptions {
  loaded: LoadedConfig;
  /** The day's daemon's log (the command line's: errors only, on stderr). */
  logger: Logger;
}

/** The TRMNL binding the measured devices copy: `mac`'s, else the display's first, else a plain PNG one. */
function bindingOf(
  config: Config,
  displayId: string,
  mac: string | undefined,
): { format: 'png' | 'bmp'; panel?: string } {
  const wanted = normalizeMac(mac);
  const b = config.trmnl?.devices.find(
    (d) => d.display === displayId && (wanted === null || normalizeMac(d.mac) === wanted),
  );
  return { format: b?.format ?? 'png', ...(b?.panel !== undefined && { panel: b.panel }) };
}

export function dayServer(o: DayServerOptions): DayServer {
  return async (req) => {
    const { config } = o.loaded;
    const display = config.displays.find((d) => d.id === req.displayId);
    if (display === undefined) throw new SimulatorSetupError(`no display with id "${req.displayId}"`);
    if (req.schedule !== undefined && req.schedule !== 'auto') {
      try {
        new CronTimes(req.schedule, config.timezone);
      } catch (err) {
        throw new SimulatorSetupError(`--schedule: ${(err as Error).message}`);
      }
    }
    const asked = { ...display, ...(req.schedule !== undefined && { schedule: req.schedule }) };
    // The schedule the whole config's daemon runs for the display, from the day's start.
    const schedule =
      resolveSchedules(
        { ...config, displays: config.displays.map((d) => (d.id === asked.id ? asked : d)) },
        {
          now: req.clock.now(),
        },
      ).get(asked.id) ?? asked.schedule;
    const dir = await mkdtemp(path.join(tmpdir(), 'outfit-day-'));
    try {
      const binding = bindingOf(config, display.id, req.bindingMac);
      const dayConfig = ConfigSchema.parse({
        ...config,
        api: { ...config.api, base_url: 'simulated' },
        displays: [{ ...asked, schedule, attached: undefined }],
        mqtt: undefined,
        openepaperlink: undefined,
        webhook: undefined,
        http: { ...config.http, listen: '127.0.0.1:0', public_url: undefined },
        trmnl:
          req.trmnl.length === 0
            ? undefined
            : { devices: req.trmnl.map((t) => ({ ...binding, mac: t.mac, display: display.id })) },
        output_dir: path.join(dir, 'frames'),
        state_dir: path.join(dir, 'state'),
      });
      const daemon = await buildDaemon({
        loaded: {
          ...o.loaded,
          config: dayConfig,
          secrets: {
            ...o.loaded.secrets,
            apiKey: null,
            apiKeySource: null,
            mqttPassword: null,
            trmnlTokens: new Map(req.trmnl.map((t) => [t.mac.toUpperCase(), t.token])),
          },
        },
        logger: o.logger,
        clock: req.clock,
        env: {},
      });
      const stop = async (): Promise<void> => {
        await daemon.stop();
        await rm(dir, { recursive: true, force: true });
      };
      try {
        await daemon.start();
        const baseUrl = daemon.httpUrl();
        if (baseUrl === null) throw new Error('the day daemon has no HTTP frame server');
        return { baseUrl, schedule, idle: () => daemon.idle(), stop };
      } catch (err) {
        await stop();
        throw err;
      }
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  };
}
