import { loadPanel } from '../../src/panels/panels.js';
import { viewSize } from '../../src/render/frame.js';
import { systemClock } from '../../src/time/clock.js';
import { formatDayReport, type DayReport } from './day-report.js';
import { runDay } from './day-run.js';
import { TRMNL_POWER } from './power.js';
import { startLiveView, type LiveView } from './live-view.js';
import { buildDevice, transportFor, type DeviceParts } from './sim-device.js';
import { describeWake, pressesOf, SimOutput, type SimSummary, type TimelineLine } from './sim-output.js';
import { SimulatorSetupError, type SimulatorOptions } from './simulator-options.js';

export { SimulatorSetupError, type SimulatorOptions } from './simulator-options.js';

/**
 * `outfit-display simulate`: one simulated device for one display of the config, against a running daemon, by
 * plain HTTP, the TRMNL protocol, MQTT, ESPHome or an attached panel's capture file; writes the glass and the
 * timeline to outDir; optionally a live view. With `day`, first a day measured against a daemon of its own on a
 * virtual clock (day-run.ts).
 */

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
  const parts: DeviceParts = { panel, width, height, power, via };
  const day = o.day ? await measureDay(o, parts, clock.now()) : null;
  const out = new SimOutput(o.outDir);
  const who = via === 'esphome' ? 'an ESPHome board' : via === 'trmnl' ? 'a TRMNL' : 'a device';
  if (day !== null) o.log?.(formatDayReport(day, m?.name ?? who));
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
  const device = buildDevice(o, parts, transport, clock, null);
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

/** `--day`: a day measured against a daemon the command line starts (day-run.ts). */
async function measureDay(o: SimulatorOptions, p: DeviceParts, from: number): Promise<DayReport> {
  if (o.dayServer === undefined)
    throw new SimulatorSetupError('--day needs a daemon to measure against: run it from `outfit-display simulate`');
  const via = p.via;
  if (via !== 'http' && via !== 'trmnl' && via !== 'esphome')
    throw new SimulatorSetupError(
      `--day measures a device that pulls its frame (--via http, trmnl or esphome), not --via ${via}`,
    );
  return runDay({
    server: o.dayServer,
    displayId: o.displayId,
    ...(o.schedule !== undefined && { schedule: o.schedule }),
    ...(o.mac !== undefined && { bindingMac: o.mac }),
    timezone: o.config.timezone,
    from,
    via,
    panel: p.panel.id,
    power: p.power,
    device: (r) => {
      const fixed = r.policy === 'stock_15min';
      const at = { ...o, baseUrl: r.baseUrl, fetch: r.fetch, ...(r.trmnl !== null && { mac: r.trmnl.mac }) };
      const transport = transportFor(at, via, p.panel, { fixed, ...(r.trmnl !== null && { apiKey: r.trmnl.token }) });
      return buildDevice(o, p, transport, r.clock, r);
    },
  });
}
