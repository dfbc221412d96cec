import { createHash, randomUUID } from 'node:crypto';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import pino, { type Logger } from 'pino';
import { vi } from 'vitest';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import type { DisplayConfig, MqttConfig } from '../../src/config/schema.js';
import type { FrameStatus } from '../../src/domain/frame-status.js';
import type { Frame } from '../../src/render/frame.js';
import { shownState, type ShownState } from '../helpers/views.js';

/** Displays, Recommendations, frames, loggers and an MQTT watcher shared by the MQTT tests. */

export function display(id: string, over: Partial<DisplayConfig> = {}): DisplayConfig {
  return {
    id,
    name: id[0]?.toUpperCase() + id.slice(1),
    lat: 52.52,
    lon: 13.405,
    unit: 'metric',
    gender: '',
    panel: 'waveshare-7in5-v2',
    home_assistant: true,
    rotation: 0,
    schedule: '*/30 6-22 * * *',
    endpoint: 'recweather',
    dither: 'floyd-steinberg',
    ...over,
  };
}

export function rec(
  over: { outfit?: string; imperial?: boolean; alerts?: unknown[]; fetchedAt?: string } = {},
): StoredRecommendation {
  const imperial = over.imperial ?? false;
  return {
    outfit: over.outfit ?? 'Light jacket, jeans and trainers.',
    reasoning: 'Mild and dry with a light breeze; a layer for the evening.',
    model: 'outfit-model-1',
    generated_at: '2026-01-31T07:00:00.000Z',
    fetched_at: over.fetchedAt ?? '2026-01-31T07:00:01.000Z',
    weather: {
      temp: imperial ? 55.4 : 13,
      feels_like: imperial ? 52 : 11.5,
      temp_unit: imperial ? '°F' : '°C',
      humidity_pct: 64,
      wind_speed: imperial ? 9 : 14,
      wind_speed_unit: imperial ? 'mph' : 'km/h',
      wind_dir: 'NW',
      description: 'Partly cloudy',
      rain_chance_pct: 20,
      uv_index: 2,
      is_day: true,
      alerts: (over.alerts ?? []) as StoredRecommendation['weather']['alerts'],
      source: 'simulated',
    },
  };
}

/** A frame whose png is a PNG signature and some bytes (the MQTT layer never decodes it). */
export function frame(tag: string): Frame {
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from(`frame:${tag}`),
  ]);
  return {
    width: 800,
    height: 480,
    png,
    bmp: null,
    raw: Buffer.alloc(0),
    hash: createHash('sha256').update(png).digest('hex'),
  };
}

/** A display's state as its cycle records it (record it with testViews().show() and publish the view). */
export function update(
  d: DisplayConfig,
  r: StoredRecommendation | null,
  tag: string,
  status: FrameStatus = { kind: 'ok' },
): ShownState {
  return shownState(d, frame(tag), { rec: r, status, nextUpdateAt: new Date('2026-01-31T07:30:00.000Z') });
}

export function mqttConfig(url: string, over: Partial<MqttConfig> = {}): MqttConfig {
  return {
    url,
    username: '',
    password_file: '',
    base_topic: 'outfit-display',
    discovery_prefix: 'homeassistant',
    discovery: true,
    ...over,
  };
}

export const budget = () => ({
  spentToday: 12,
  spentMonth: 120,
  leftToday: 188,
  leftMonth: Infinity,
  rateRemaining: 57,
  blockedUntil: null,
  periodResetsAt: new Date('2026-02-01T00:00:00.000Z'),
  warnings: [],
});

export const silentLogger = (): Logger => pino({ level: 'silent' });

export { capturingLogger } from '../helpers/capturing-logger.js';

export interface Received {
  topic: string;
  payload: Buffer;
  retain: boolean;
}

/** A test client that records everything it receives on the given filters. */
export interface Watcher {
  client: MqttClient;
  all: Received[];
  /** The newest message a topic. */
  latest(topic: string): Received | undefined;
  waitFor(pred: (all: Received[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function watch(url: string, filters: string[], opts: IClientOptions = {}): Promise<Watcher> {
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 5000, ...opts });
  const all: Received[] = [];
  client.on('message', (topic, payload, packet) => all.push({ topic, payload, retain: packet.retain }));
  if (filters.length > 0) await client.subscribeAsync(filters, { qos: 1 });
  return {
    client,
    all,
    latest: (topic) => [...all].reverse().find((m) => m.topic === topic),
    async waitFor(pred, what, timeoutMs = 5000) {
      await vi.waitFor(
        () => {
          if (!pred(all)) throw new Error(`timed out waiting for ${what}; got ${all.map((m) => m.topic).join(', ')}`);
        },
        { timeout: timeoutMs, interval: 20 },
      );
    },
    close: () => client.endAsync(true),
  };
}

/**
 * Every retained message under the filters, read by a fresh client (the way HA reads them after a restart). Read to
 * the end, not for a while: the client then sends itself a marker and waits for it. Mosquitto queues a SUBSCRIBE's
 * retained messages before it reads the client's next packet, so they all come before the marker; the embedded
 * broker streams them from memory as it acknowledges the SUBSCRIBE, well before the marker's round trip.
 */
export async function readRetained(
  url: string,
  filters: string[],
  opts: IClientOptions = {},
): Promise<Map<string, Buffer>> {
  const w = await watch(url, filters, opts);
  const marker = `test-marker/${randomUUID()}`;
  await w.client.subscribeAsync(marker, { qos: 1 });
  await w.client.publishAsync(marker, 'end', { qos: 1 });
  await w.waitFor((all) => all.some((m) => m.topic === marker), 'the marker after the retained messages');
  await w.close();
  const out = new Map<string, Buffer>();
  for (const m of w.all) if (m.retain && m.payload.length > 0) out.set(m.topic, m.payload);
  return out;
}
