import { CronTimes, longestGapMs } from '../budget/cron-times.js';
import type { Config } from '../config/schema.js';
import type { PublisherPlugin } from '../publish/plugin.js';
import { expireAfterFromGap } from './ha-discovery.js';

const DAY_MS = 86_400_000;

/**
 * How long each display's readings count as current in Home Assistant (expire_after): twice the longest gap of its
 * schedule plus five minutes; null for a schedule that fires less than twice in 8 days.
 */
function freshnessSeconds(
  config: Config,
  schedules: ReadonlyMap<string, string>,
  now: number,
): Map<string, number | null> {
  return new Map(
    config.displays.map((d) => {
      const gap = longestGapMs(new CronTimes(schedules.get(d.id) ?? d.schedule, config.timezone), now, 8 * DAY_MS);
      return [d.id, gap === null ? null : expireAfterFromGap(gap / 1000)] as const;
    }),
  );
}

/** MQTT and Home Assistant discovery (`mqtt:`): it reports no problem of its own (a lost broker is retried and logged). */
export const mqttPlugin: PublisherPlugin = {
  name: 'mqtt',
  configKey: 'mqtt',
  enabled: (config) => config.mqtt !== undefined,
  problems: [],
  async build(ctx) {
    const { config, secrets } = ctx.loaded;
    const mqtt = config.mqtt!;
    const freshFor = freshnessSeconds(config, ctx.schedules, ctx.clock.now());
    const book = ctx.devices.book;
    const { MqttPublisher } = await import('./mqtt-publisher.js');
    const { PresenceTopics } = await import('./presence-topics.js');
    const presence = ctx.presence;
    return new MqttPublisher({
      mqtt,
      password: secrets.mqttPassword,
      displays: config.displays,
      timezone: config.timezone,
      clock: ctx.clock,
      logger: ctx.logger,
      onRefresh: (id) => ctx.refresh(id),
      refreshUnavailable: ctx.refreshUnavailable,
      views: ctx.views,
      expireAfterS: (id) => freshFor.get(id) ?? null,
      haDiscovery: (id) => mqtt.discovery && (config.displays.find((d) => d.id === id)?.home_assistant ?? false),
      // The devices that show a display come from the device registry, whoever serves them.
      hasDevice: (id) => ctx.devices.has(id),
      ...(book !== null && { devices: book }),
      trmnlMacs: (id) => ctx.devices.macs(id),
      onPair: (id) => ctx.devices.pair(id),
      ...(mqtt.client_id !== undefined && { clientId: mqtt.client_id }),
      ...(ctx.household !== undefined &&
        config.people.length > 0 && { household: { people: config.people, ...ctx.household } }),
      // The household's presence (docs/guides/household.md): each person's topic feeds the presence book.
      ...(presence !== undefined && {
        presence: new PresenceTopics({
          people: config.people,
          onPresence: (id, payload) => presence.record(id, payload),
        }),
      }),
    });
  },
};
