import type { Config } from '../../src/config/schema.js';
import { clientHost, parseListen } from '../../src/shared/http-listen.js';
import { viewSize } from '../../src/render/frame.js';
import { loadPanel, type PanelProfile } from '../../src/panels/panels.js';
import { systemClock, type Clock } from '../../src/time/clock.js';
import { dayReport, formatDayReport, type DayReport } from './day-report.js';
import { Device } from './device.js';
import { TRMNL_POWER } from './power.js';
import type { SensorValues, SimModel } from './sim-models.js';
import { startLiveView, type LiveView } from './live-view.js';
import { describeWake, pressesOf, SimOutput, type SimSummary, type TimelineLine } from './sim-output.js';
import type { FetchFn, Transport, Via } from './transport.js';
import { HttpTransport } from './transport-http.js';
import { MqttTransport } from './transport-mqtt.js';
import { TrmnlTransport } from './transport-trmnl.js';
import { PanelTransport } from './transport-panel.js';
import { EsphomeTransport } from './transport-esphome.js';
import { ourDrawCall } from './esphome-image.js';

/**
 * `outfit-display simulate`: one simulated device for one display of the config, against a running daemon, by
 * plain HTTP, the TRMNL protocol or MQTT; writes the glass and the timeline to outDir; optionally a live view.
 */

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
  /** Also work out a day of the schedule (day-report.ts), printed and in summary.json. */
  day?: boolean;
  /** The schedule of the day report; default the display's, or DEFAULT_DAY_SCHEDULE for `auto`. */
  schedule?: string;
  /** The device's wall time and timers; default systemClock (real timers keep the process alive while it sleeps). */
  clock?: Clock;
  fetch?: FetchFn;
  signal?: AbortSignal;
  /** One line a wake and the live view's address; default nothing. */
  log?: (line: string) => void;
}

export interface SimulatorResult {
  records: TimelineLine[];
  /** Wakes that changed the glass. */
  refreshed: number;
  errors: number;
  /** Battery days estimated from the whole run. */
  estBatteryDays: number | null;
  webUrl: string | null;
  /** What summary.json holds. */
  summary: SimSummary;
}

/** The schedule of a display whose own is `auto` (worked out by the daemon from the budget) for the day report. */
export const DEFAULT_DAY_SCHEDULE = '*/30 6-22 * * *';

/** Bad usage or config (exit 2). */
export class SimulatorSetupError extends Error {}

/**
 * The device of our YAMLs (config/esphome/): BMP where its rows need no padding (a multiple of 32 wide), else PNG;
 * the 2.9" on waveshare_epaper, the rest on epaper_spi.
 */
function esphomeTransport(o: SimulatorOptions, baseUrl: string, panel: PanelProfile): Transport {
  const rotation = o.config.displays.find((d) => d.id === o.displayId)?.rotation ?? 0;
  const format = panel.bmp && viewSize(panel, rotation).width % 32 === 0 ? 'bmp' : 'png';
  const draw = ourDrawCall(panel.id === 'waveshare-2in9' ? 'waveshare_epaper' : 'epaper_spi');
  return new EsphomeTransport({
    baseUrl,
    displayId: o.displayId,
    format,
    draw,
    deepSleep: o.deepSleep ?? false,
    ...(o.fetch !== undefined && { fetch: o.fetch }),
  });
}

function transportFor(o: SimulatorOptions, via: Via, panel: PanelProfile): Transport {
  const { config, displayId } = o;
  const baseUrl =
    o.baseUrl ??
    (config.http
      ? (() => {
          const a = parseListen(config.http.listen);
          return `http://${clientHost(a.host)}:${a.port}`;
        })()
      : 'http://127.0.0.1:8321');
  if (via === 'http')
    return new HttpTransport({ baseUrl, displayId, fetch: o.fetch, kindle: o.model?.name === 'kindle' });
  if (via === 'esphome') return esphomeTransport(o, baseUrl, panel);
  if (via === 'panel') {
    const display = config.displays.find((d) => d.id === displayId);
    const file = display?.attached?.capture;
    if (display === undefined || file === undefined)
      throw new SimulatorSetupError(
        `--via panel needs display "${displayId}" to have attached.capture (the file the daemon writes the panel's command stream to)`,
      );
    return new PanelTransport({ file, panel, rotation: display.rotation });
  }
  if (via === 'trmnl') {
    const mac = o.mac ?? config.trmnl?.devices.find((d) => d.display === displayId)?.mac;
    if (mac === undefined)
      throw new SimulatorSetupError(`no trmnl.devices entry maps to display "${displayId}": add one, or pass --mac`);
    return new TrmnlTransport({ baseUrl, mac: mac.toUpperCase(), fetch: o.fetch });
  }
  const url =
    o.mqttUrl ??
    (config.mqtt ? (config.mqtt.url === 'embedded' ? 'mqtt://127.0.0.1:1883' : config.mqtt.url) : undefined);
  if (url === undefined) throw new SimulatorSetupError('--via mqtt needs an mqtt section in the config, or --mqtt-url');
  return new MqttTransport({
    url,
    baseTopic: config.mqtt?.base_topic ?? 'outfit-display',
    displayId,
    username: config.mqtt?.username,
    password: o.mqttPassword ?? null,
    clock: o.clock ?? systemClock,
  });
}

export async function runSimulator(o: SimulatorOptions): Promise<SimulatorResult> {
  const display = o.config.displays.find((d) => d.id === o.displayId);
  if (!display) {
    throw new SimulatorSetupError(
      `no display with id "${o.displayId}"; the config has ${o.config.displays.map((d) => d.id).join(', ')}`,
    );
  }
  const via = o.via ?? o.model?.via ?? 'http';
  if (o.speed !== undefined && !(o.speed > 0)) throw new SimulatorSetupError('--speed must be a positive number');
  const m = o.model;
  if (m !== undefined && m.via !== via)
    throw new SimulatorSetupError(`--model ${m.name} speaks --via ${m.via}, not ${via}`);
  if (m === undefined && (o.sensors !== undefined || o.batteryPct !== undefined))
    throw new SimulatorSetupError('--sensors and --battery need --model');
  if (o.sensors !== undefined && m?.firmware2026 !== true)
    throw new SimulatorSetupError(`--model ${m?.name ?? ''} has no environment sensor to send`);
  const panel = m === undefined ? (o.panels?.get(display.id) ?? loadPanel(display.panel)) : loadPanel(m.model.panel);
  const { width, height } = viewSize(panel, display.rotation);
  const clock = o.clock ?? systemClock;
  const power = m?.power ?? TRMNL_POWER;
  const schedule = o.schedule ?? (display.schedule === 'auto' ? DEFAULT_DAY_SCHEDULE : display.schedule);
  let day: DayReport | null = null;
  try {
    day = o.day ? dayReport({ schedule, timezone: o.config.timezone, panel, power, from: clock.now() }) : null;
  } catch (err) {
    throw new SimulatorSetupError(`the day report: ${(err as Error).message}`);
  }
  const out = new SimOutput(o.outDir);
  if (day !== null) o.log?.(formatDayReport(day, m?.name ?? 'TRMNL'));
  if (o.wakes === 0) {
    const summary: SimSummary = {
      model: m?.name ?? null,
      panel: panel.id,
      wakes: 0,
      new_frames: 0,
      refreshed: 0,
      errors: 0,
      presses: [],
      est_battery_days: null,
      day,
    };
    await out.writeSummary(summary);
    return { records: [], refreshed: 0, errors: 0, estBatteryDays: null, webUrl: null, summary };
  }
  // Plain HTTP serves the display's own frame: a Kindle shows it only when the display is drawn for its screen.
  if (m !== undefined && via === 'http' && (o.panels?.get(display.id)?.id ?? display.panel) !== panel.id) {
    o.log?.(
      `note: display "${display.id}" is drawn for ${display.panel}, this ${m.name} has a ${panel.id} screen: give the display \`panel: ${panel.id}\``,
    );
  }
  const transport = transportFor(o, via, panel);
  const device = new Device({
    panel,
    width,
    height,
    transport,
    clock,
    maxImageBytes:
      o.maxImageBytes ?? m?.model.maxBytes ?? (via === 'trmnl' || panel.id.startsWith('trmnl') ? 90_000 : 1_000_000),
    defaultRefreshS: o.intervalS ?? 900,
    speed: o.speed ?? 1,
    maxSleepMs: o.maxSleepS === undefined || o.maxSleepS === null ? null : o.maxSleepS * 1000,
    power,
    ...(o.batteryPct !== undefined && { startPct: o.batteryPct }),
    ...(m?.header != null && { model: m.header }),
    // On the 2026 firmware, a board on battery: not charging, no USB.
    ...(m?.firmware2026 === true && {
      firmware: { percentCharged: m.percentCharged, charging: false, usbConnected: false },
    }),
    ...(o.sensors !== undefined && { sensors: o.sensors }),
    buttonWakes: new Set(o.buttonWakes ?? []),
  });
  const lines: TimelineLine[] = [];
  let live: LiveView | null = null;
  try {
    if (o.web) {
      live = await startLiveView({
        host: '127.0.0.1',
        port: o.webPort ?? 8322,
        title: `${display.name ?? display.id} · ${panel.name} · via ${via}`,
        panel,
        width,
        height,
      });
      o.log?.(`live view at ${live.url}`);
    }
    const records = await device.run(
      o.wakes ?? Infinity,
      async (r) => {
        const png = device.panel.glassPng();
        const line = await out.write(r, png, device.panel.hasMeasuredInks ? device.panel.inkPng() : undefined);
        lines.push(line);
        live?.push(line, png);
        o.log?.(describeWake(r));
      },
      o.signal,
    );
    if (live && o.keepWebOpen && o.signal && !o.signal.aborted) {
      o.log?.(`wakes done; the live view stays at ${live.url} until stopped`);
      const signal = o.signal;
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    }
    const summary: SimSummary = {
      model: m?.name ?? null,
      panel: panel.id,
      wakes: records.length,
      new_frames: records.filter((r) => r.new_frame).length,
      refreshed: records.filter((r) => r.outcome === 'refreshed').length,
      errors: records.filter((r) => r.outcome === 'error').length,
      presses: pressesOf(records),
      est_battery_days: device.power.estimateDays(),
      day,
    };
    await out.writeSummary(summary);
    return {
      records: lines,
      refreshed: summary.refreshed,
      errors: summary.errors,
      estBatteryDays: summary.est_battery_days,
      webUrl: live?.url ?? null,
      summary,
    };
  } finally {
    await live?.close();
    await transport.close();
  }
}
