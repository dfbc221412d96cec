import path from 'node:path';
import type { LoadedConfig } from '../../src/config/load.js';
import { runSimulator, SimulatorSetupError, type SimulatorOptions } from './run.js';
import { parseSensorsFlag, simModel, simModelNames, type SensorValues } from './sim-models.js';
import type { Via } from './transport.js';
import type { DayServer } from './day-run.js';
import type { Clock } from '../../src/time/clock.js';
import { loadPanel } from '../../src/panels/panels.js';

/**
 * `outfit-display simulate --config F --display ID [--wakes N] [--out DIR] [--web] [--via http|trmnl|mqtt|panel|esphome|oepl]
 *   [--speed X] [--max-sleep S] [--interval S] [--url URL] [--mac MAC] [--mqtt-url URL] [--web-port N]
 *   [--max-image-bytes N] [--model og|og_plus|x|reterminal_e1001|xiao|kindle] [--button K[,K…]] [--sensors
 *   temperature=N,humidity=N,co2=N] [--battery N] [--day [--schedule CRON]] [--deep-sleep]`: the flags (as node:util parseArgs gives
 *   them) → runSimulator. Exit 0 when the glass showed a picture and the last wake was not an error (or, with --day
 *   and --wakes 0, the day was measured), 1 otherwise, 2 for bad flags.
 */

/** parseArgs option specs for the simulate flags beyond --config, --display, --wakes, --out and --web. */
export const SIMULATE_OPTIONS = {
  via: { type: 'string' },
  speed: { type: 'string' },
  'max-sleep': { type: 'string' },
  interval: { type: 'string' },
  url: { type: 'string' },
  mac: { type: 'string' },
  'mqtt-url': { type: 'string' },
  'web-port': { type: 'string' },
  'max-image-bytes': { type: 'string' },
  model: { type: 'string' },
  button: { type: 'string' },
  sensors: { type: 'string' },
  battery: { type: 'string' },
  day: { type: 'boolean' },
  'deep-sleep': { type: 'boolean' },
  schedule: { type: 'string' },
} as const;

export interface SimulateFlags {
  display?: string;
  wakes?: string;
  out?: string;
  web?: boolean;
  via?: string;
  speed?: string;
  'max-sleep'?: string;
  interval?: string;
  url?: string;
  mac?: string;
  'mqtt-url'?: string;
  'web-port'?: string;
  'max-image-bytes'?: string;
  model?: string;
  button?: string;
  sensors?: string;
  battery?: string;
  day?: boolean;
  'deep-sleep'?: boolean;
  schedule?: string;
}

function number(flag: string, v: string | undefined, opts: { min: number; integer?: boolean }): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < opts.min || (opts.integer && !Number.isInteger(n))) {
    throw new SimulatorSetupError(
      `--${flag} must be ${opts.integer ? 'a whole number' : 'a number'} of at least ${opts.min}, not "${v}"`,
    );
  }
  return n;
}

function sensors(flag: string | undefined): SensorValues | undefined {
  if (flag === undefined) return undefined;
  try {
    return parseSensorsFlag(flag);
  } catch (err) {
    throw new SimulatorSetupError((err as Error).message);
  }
}

export function simulatorOptions(loaded: LoadedConfig, f: SimulateFlags, cwd = process.cwd()): SimulatorOptions {
  if (f.display === undefined) throw new SimulatorSetupError('simulate needs --display ID');
  if (f.battery !== undefined && !(Number(f.battery) <= 100))
    throw new SimulatorSetupError(`--battery must be a percent from 0 to 100, not "${f.battery}"`);
  const model = f.model === undefined ? undefined : simModel(f.model);
  if (model === null)
    throw new SimulatorSetupError(`--model must be one of ${simModelNames().join(', ')}, not "${f.model}"`);
  // A model names its transport: --via may be left out, and must agree when given (runSimulator checks).
  const via = (f.via ?? model?.via ?? 'http') as Via;
  if (!['http', 'trmnl', 'mqtt', 'panel', 'esphome'].includes(via))
    throw new SimulatorSetupError(`--via must be http, trmnl, mqtt, panel or esphome, not "${f.via}"`);
  if (f['deep-sleep'] === true && via !== 'esphome')
    throw new SimulatorSetupError('--deep-sleep is for --via esphome (the battery YAML)');
  for (const [flag, v] of [
    ['url', f.url],
    ['mqtt-url', f['mqtt-url']],
  ] as const) {
    if (v !== undefined && !/^(https?|mqtts?):\/\/[^\s]+$/.test(v))
      throw new SimulatorSetupError(`--${flag} must be a URL, not "${v}"`);
  }
  return {
    config: loaded.config,
    displayId: f.display,
    panels: loaded.panels,
    via,
    // --day --wakes 0: the measured day alone (against a daemon of its own), without a running daemon to ask.
    wakes: number('wakes', f.wakes, { min: f.day ? 0 : 1, integer: true }),
    outDir: path.resolve(cwd, f.out ?? `simulator-${f.display}`),
    web: f.web ?? false,
    webPort: number('web-port', f['web-port'], { min: 0, integer: true }),
    keepWebOpen: true,
    baseUrl: f.url,
    mac: f.mac,
    mqttUrl: f['mqtt-url'],
    mqttPassword: loaded.secrets.mqttPassword,
    speed: number('speed', f.speed, { min: 0.001 }),
    maxSleepS: number('max-sleep', f['max-sleep'], { min: 0 }),
    intervalS: number('interval', f.interval, { min: 1 }),
    maxImageBytes: number('max-image-bytes', f['max-image-bytes'], { min: 1, integer: true }),
    ...(model !== undefined && { model }),
    ...(f.button !== undefined && {
      buttonWakes: f.button.split(',').map((k) => number('button', k.trim(), { min: 1, integer: true })!),
    }),
    ...(f.sensors !== undefined && { sensors: sensors(f.sensors) }),
    ...(f.battery !== undefined && { batteryPct: number('battery', f.battery, { min: 0, integer: true }) }),
    day: f.day ?? false,
    ...(f['deep-sleep'] === true && { deepSleep: true }),
    ...(f.schedule !== undefined && { schedule: f.schedule }),
  };
}

/** Runs the command; `log` gets one line a wake. Never throws for bad flags (exit 2) or a failing device (exit 1). */
export async function runSimulateCommand(
  loaded: LoadedConfig,
  flags: SimulateFlags,
  io: {
    log: (line: string) => void;
    error: (line: string) => void;
    signal: AbortSignal;
    /** Starts the daemon a `--day` is measured against (the command line's; without it, --day is refused). */
    dayServer?: DayServer;
    /** The device's wall time and timers (default the system's): the day measured is the one after its now. */
    clock?: Clock;
  },
): Promise<0 | 1 | 2> {
  // OpenEPaperLink: the daemon pushes to the simulated access point (display/firmware/oepl-ap.ts) instead.
  if (flags.via === 'oepl') return (await import('./oepl-ap.js')).runOeplAp(loaded.config, flags, io, loadPanel);
  let opts: SimulatorOptions;
  try {
    opts = simulatorOptions(loaded, flags);
  } catch (err) {
    io.error(`error: ${(err as Error).message}`);
    return 2;
  }
  try {
    const r = await runSimulator({
      ...opts,
      log: io.log,
      signal: io.signal,
      ...(io.dayServer !== undefined && { dayServer: io.dayServer }),
      ...(io.clock !== undefined && { clock: io.clock }),
    });
    const last = r.records[r.records.length - 1];
    if (opts.wakes === 0) {
      io.log(`the day report is in ${opts.outDir}/summary.json`);
      return 0;
    }
    io.log(
      `${r.records.length} wakes, ${r.summary.new_frames} new frames, ${r.refreshed} refreshes, ${r.errors} errors; glass, timeline and summary in ${opts.outDir}`,
    );
    return r.refreshed > 0 && last?.outcome !== 'error' ? 0 : 1;
  } catch (err) {
    io.error(`error: ${(err as Error).message}`);
    return err instanceof SimulatorSetupError ? 2 : 1;
  }
}
