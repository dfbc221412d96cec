import path from 'node:path';
import type { Logger } from 'pino';
import type { BudgetStatus } from './budget/governor-types.js';
import { CronTimes, longestGapMs } from './budget/cron-times.js';
import { resolveSchedules } from './budget/planner.js';
import type { LoadedConfig } from './config/load.js';
import type { Config } from './config/schema.js';
import type { DisplaySnapshot } from './cycle.js';
import { FilePublisher } from './publish/file-publisher.js';
import { expireAfterFromGap } from './mqtt/ha-discovery.js';
import type { HttpPublisher } from './http/http-publisher.js';
import type { MqttPublisher } from './mqtt/mqtt-publisher.js';
import type { Publisher } from './publish/publisher.js';
import { PAIRING_FILE } from './trmnl/pairing.js';

/** What the publishers ask of the running daemon; each is read when needed, so the daemon can fill them in later. */
export interface PublisherDeps {
  logger: Logger;
  now: () => number;
  budget: () => BudgetStatus;
  snapshot: (displayId: string) => DisplaySnapshot | null;
  nextUpdateAt: (displayId: string) => Date | null;
  /** A refresh press (MQTT button, the status page): through the budget's reserve, coalesced. */
  refresh: (displayId: string) => Promise<unknown>;
  /** Why refreshing is off (no refresh reserve), or null: the status page then has no button, HA's is unavailable. */
  refreshUnavailable: string | null;
}

const DAY_MS = 86_400_000;

/**
 * How long each display's data counts as current (Home Assistant's expire_after, the HTTP health check): twice the
 * longest gap of its schedule plus five minutes; null for a schedule that fires less than twice in 8 days.
 */
export function freshnessSeconds(config: Config, now: number): Map<string, number | null> {
  const schedules = resolveSchedules(config, { now });
  return new Map(
    config.displays.map((d) => {
      const gap = longestGapMs(new CronTimes(schedules.get(d.id) ?? d.schedule, config.timezone), now, 8 * DAY_MS);
      return [d.id, gap === null ? null : expireAfterFromGap(gap / 1000)] as const;
    }),
  );
}

/**
 * The publishers the config asks for: always the files; MQTT with an `mqtt` section; HTTP with an `http` section.
 * MQTT and HTTP are imported only when their section exists, so a daemon without them never loads mqtt or the server.
 */
export async function buildPublishers(loaded: LoadedConfig, deps: PublisherDeps): Promise<Publisher[]> {
  const { config, secrets } = loaded;
  const { logger } = deps;
  const publishers: Publisher[] = [new FilePublisher(config.output_dir)];
  const trmnlDevices = config.trmnl?.devices ?? [];
  const freshFor = freshnessSeconds(config, deps.now());

  let mqttPublisher: MqttPublisher | null = null;
  let httpPublisher: HttpPublisher | null = null;
  if (config.mqtt) {
    const mqtt = config.mqtt;
    const { MqttPublisher } = await import('./mqtt/mqtt-publisher.js');
    mqttPublisher = new MqttPublisher({
      mqtt,
      password: secrets.mqttPassword,
      displays: config.displays,
      timezone: config.timezone,
      logger,
      onRefresh: (id) => deps.refresh(id),
      refreshUnavailable: deps.refreshUnavailable,
      budgetStatus: deps.budget,
      nextUpdateAt: deps.nextUpdateAt,
      expireAfterS: (id) => freshFor.get(id) ?? null,
      haDiscovery: (id) => mqtt.discovery && (config.displays.find((d) => d.id === id)?.home_assistant ?? false),
      hasDevice: (id) => trmnlDevices.some((d) => d.display === id),
      // The Home Assistant pairing button: TRMNL devices are served (and paired) by the HTTP publisher.
      onPair: (id) => httpPublisher?.pairing.open(trmnlDevices.filter((d) => d.display === id).map((d) => d.mac.toUpperCase())),
      ...(mqtt.client_id !== undefined && { clientId: mqtt.client_id }),
    });
    publishers.push(mqttPublisher);
  }

  if (config.http) {
    const http = config.http;
    const { HttpPublisher } = await import('./http/http-publisher.js');
    publishers.push(
      new HttpPublisher({
        listen: http.listen,
        displays: config.displays,
        timezone: config.timezone,
        now: deps.now,
        snapshot: deps.snapshot,
        nextUpdateAt: deps.nextUpdateAt,
        budget: deps.budget,
        budgetLimits: { perDay: config.budget.credits_per_day ?? null, perMonth: config.budget.credits_per_month ?? null },
        refresh: deps.refresh,
        refreshUnavailable: deps.refreshUnavailable,
        freshnessMs: (id) => {
          const fresh = freshFor.get(id);
          return fresh == null ? null : fresh * 1000;
        },
        trmnlDevices: trmnlDevices.map((d) => ({ mac: d.mac, display: d.display, format: d.format })),
        trmnlTokens: secrets.trmnlTokens,
        secrets: [secrets.apiKey, secrets.mqttPassword].filter((x): x is string => x !== null),
        publicUrl: http.public_url ?? null,
        allowedHosts: http.allowed_hosts,
        pairingFile: path.join(config.state_dir, PAIRING_FILE),
        onDeviceTelemetry: (id, t) => mqttPublisher?.publishTelemetry(id, t),
        logger: logger.child({ part: 'http' }),
      }),
    );
    httpPublisher = publishers.at(-1) as HttpPublisher;
  }
  return publishers;
}
