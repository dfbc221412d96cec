import { clientHost, parseListen } from '../../src/shared/http-listen.js';
import { viewSize } from '../../src/render/frame.js';
import type { PanelProfile } from '../../src/panels/panels.js';
import { systemClock, type Clock } from '../../src/time/clock.js';
import type { DayDeviceRequest } from './day-run.js';
import { Device } from './device.js';
import { ourDrawCall } from './esphome-image.js';
import type { PowerProfile } from './power.js';
import { SimulatorSetupError, type SimulatorOptions } from './simulator-options.js';
import type { Transport, Via } from './transport.js';
import { EsphomeTransport } from './transport-esphome.js';
import { HttpTransport } from './transport-http.js';
import { MqttTransport } from './transport-mqtt.js';
import { PanelTransport } from './transport-panel.js';
import { TrmnlTransport } from './transport-trmnl.js';

/**
 * The simulated device of `simulate`, built from its options: the transport it speaks and the Device around it, for a
 * live run against a running daemon and for each of the two devices of a measured day (day-run.ts).
 */

/**
 * The device of our YAMLs (config/esphome/): BMP where its rows need no padding (a multiple of 32 wide), else PNG;
 * the 2.9" on waveshare_epaper, the rest on epaper_spi.
 */
function esphomeTransport(o: SimulatorOptions, baseUrl: string, panel: PanelProfile, fixed: boolean): Transport {
  const rotation = o.config.displays.find((d) => d.id === o.displayId)?.rotation ?? 0;
  const format = panel.bmp && viewSize(panel, rotation).width % 32 === 0 ? 'bmp' : 'png';
  const draw = ourDrawCall(panel.id === 'waveshare-2in9' ? 'waveshare_epaper' : 'epaper_spi');
  return new EsphomeTransport({
    baseUrl,
    displayId: o.displayId,
    format,
    draw,
    deepSleep: o.deepSleep ?? false,
    // A battery YAML on a fixed deep sleep reads no sleep.txt.
    ...(fixed && { readSleepTxt: false }),
    ...(o.fetch !== undefined && { fetch: o.fetch }),
  });
}

/**
 * `day`: a device of a measured day, paired before it (its TRMNL token), on a fixed interval or not.
 */
export function transportFor(
  o: SimulatorOptions,
  via: Via,
  panel: PanelProfile,
  day: { apiKey?: string; fixed: boolean } = { fixed: false },
): Transport {
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
  if (via === 'esphome') return esphomeTransport(o, baseUrl, panel, day.fixed);
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
    return new TrmnlTransport({
      baseUrl,
      mac: mac.toUpperCase(),
      fetch: o.fetch,
      ...(day.apiKey !== undefined && { apiKey: day.apiKey }),
    });
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

/** What every device of a run shares: the glass it shows, its battery and how it speaks. */
export interface DeviceParts {
  panel: PanelProfile;
  width: number;
  height: number;
  power: PowerProfile;
  via: Via;
}

/** The stock interval of `simulate --day`'s second device, seconds. */
const STOCK_S = 900;

/** The simulated device of a live run (`day` null), or one of a measured day's two (no speed, no presses). */
export function buildDevice(
  o: SimulatorOptions,
  p: DeviceParts,
  transport: Transport,
  clock: Clock,
  day: DayDeviceRequest | null,
): Device {
  const m = o.model;
  return new Device({
    panel: p.panel,
    width: p.width,
    height: p.height,
    transport,
    clock,
    maxImageBytes:
      o.maxImageBytes ??
      m?.model.maxBytes ??
      (p.via === 'trmnl' || p.panel.id.startsWith('trmnl') ? 90_000 : 1_000_000),
    defaultRefreshS: o.intervalS ?? 900,
    ...(day === null
      ? {
          speed: o.speed ?? 1,
          maxSleepMs: o.maxSleepS === undefined || o.maxSleepS === null ? null : o.maxSleepS * 1000,
          buttonWakes: new Set(o.buttonWakes ?? []),
        }
      : day.policy === 'stock_15min' && { fixedSleepS: STOCK_S }),
    power: p.power,
    ...(o.batteryPct !== undefined && { startPct: o.batteryPct }),
    ...(m?.header != null && { model: m.header }),
    // On the 2026 firmware, a board on battery: not charging, no USB.
    ...(m?.firmware2026 === true && {
      firmware: { percentCharged: m.percentCharged, charging: false, usbConnected: false },
    }),
    ...(o.sensors !== undefined && { sensors: o.sensors }),
  });
}
