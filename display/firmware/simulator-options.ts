import type { Config } from '../../src/config/schema.js';
import type { PanelProfile } from '../../src/panels/panels.js';
import type { Clock } from '../../src/time/clock.js';
import type { DayServer } from './day-run.js';
import type { SensorValues, SimModel } from './sim-models.js';
import type { FetchFn, Via } from './transport.js';

/** What `outfit-display simulate` is asked (simulate-command.ts turns the flags into it; run.ts runs it). */
export interface SimulatorOptions {
  config: Config;
  displayId: string;
  /** Each display's panel profile as the config loader resolved it (LoadedConfig.panels); default: the one its `panel` names. */
  panels?: ReadonlyMap<string, PanelProfile> | undefined;
  /** Default 'http'. */
  via?: Via;
  /** Stop after this many wakes (default: run until the signal). */
  wakes?: number;
  outDir: string;
  /** Serve the live view on 127.0.0.1:webPort (default 8322; 0 lets the OS choose). */
  web?: boolean;
  webPort?: number;
  /** With `web`: after the last wake, keep serving the page until `signal` aborts (the CLI's Ctrl-C). */
  keepWebOpen?: boolean;
  /** The daemon's HTTP server; default from http.listen (0.0.0.0 → 127.0.0.1). */
  baseUrl?: string;
  /** The TRMNL device's MAC; default the first trmnl.devices entry of the display. */
  mac?: string;
  /** Default mqtt.url (`embedded` → mqtt://127.0.0.1:1883). */
  mqttUrl?: string;
  mqttPassword?: string | null;
  /** Real time runs this many times faster than the device's (default 1). */
  speed?: number;
  /** The longest real sleep between wakes, seconds (default none). */
  maxSleepS?: number | null;
  /** The device's own refresh interval when the server gives none, seconds (default 900). */
  intervalS?: number;
  /** Default the model's limit, else 90,000 for TRMNL (the protocol or a trmnl panel), else 1,000,000. */
  maxImageBytes?: number;
  /**
   * The device played (`--model`): its `Model` header and screen (the glass is its panel, not the display's), its
   * download limit and power; absent: the display's own panel and the original TRMNL's power.
   */
  model?: SimModel;
  /** Wake numbers (from 1) that are presses of the button. */
  buttonWakes?: readonly number[];
  /** An environment sensor's readings, sent as `SENSORS` (2026 firmware models only). */
  sensors?: SensorValues;
  /** The battery's charge at the start, percent (default 100). */
  batteryPct?: number;
  /** With `via: 'esphome'`: the battery YAML (sleep.txt, deep sleep) instead of a fixed update_interval. */
  deepSleep?: boolean;
  /** Also measure a day (day-run.ts) against a daemon `dayServer` starts: printed and in summary.json. */
  day?: boolean;
  /** With `day`: the display's schedule for the day; default its own (`auto` as the daemon resolves it). */
  schedule?: string;
  /**
   * With `day`: starts the daemon the day is measured against, on the day's virtual clock (the command line's,
   * src/cli/day-server.ts: the simulator itself may not start a daemon).
   */
  dayServer?: DayServer;
  /** The device's wall time and timers; default systemClock (real timers keep the process alive while it sleeps). */
  clock?: Clock;
  fetch?: FetchFn;
  signal?: AbortSignal;
  /** One line a wake and the live view's address; default nothing. */
  log?: (line: string) => void;
}

/** Bad usage or config (exit 2). */
export class SimulatorSetupError extends Error {}
