import { CronTimes, longestGapMs } from '../budget/cron-times.js';
import type { Config } from '../config/schema.js';
import type { PublisherContext, PublisherPlugin } from '../publish/plugin.js';
import { loadPanel } from '../panels/panels.js';
import { displayRenderOptions, drawInProcess, renderContext } from '../render/display-frame.js';
import { onePersonOf } from '../state/person-view.js';
import type { PersonFrames } from './person-entities.js';
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

/**
 * The people a device shows alone (a TRMNL device's or an OpenEPaperLink tag's `person`, the first such device's
 * panel), and their own frame as that device shows it: their Home Assistant image entity.
 */
function personFrames(ctx: PublisherContext): PersonFrames {
  const { config } = ctx.loaded;
  // A TRMNL device turns its frame as the display does; a tag is fed its own size (the access point turns it).
  const panelOf = new Map<string, { display: string; panel: string | null; turned: boolean }>();
  for (const d of config.trmnl?.devices ?? [])
    if (d.person !== undefined && !panelOf.has(d.person))
      panelOf.set(d.person, { display: d.display, panel: d.panel ?? null, turned: true });
  for (const t of config.openepaperlink?.tags ?? [])
    if (t.person !== undefined && !panelOf.has(t.person))
      panelOf.set(t.person, { display: t.display, panel: t.panel, turned: false });
  const render = renderContext(ctx.loaded);
  return {
    people: new Set(panelOf.keys()),
    async draw(view, personId) {
      const at = panelOf.get(personId);
      const own = displayRenderOptions(view.display, render);
      // A device of another display's panel is drawn for; one that names none shows the display's own panel.
      const panel = at?.panel != null && at.display === view.display.id ? loadPanel(at.panel) : own.panel;
      const frame = await (ctx.draw ?? drawInProcess)(
        own,
        {
          rec: view.rec,
          status: view.status,
          now: view.frameSince,
          storeProblem: view.storeProblem,
          stale: view.stale,
          ...onePersonOf(view, personId),
        },
        { panel, rotation: at?.turned === false ? 0 : own.rotation },
      );
      return frame.png;
    },
  };
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
        config.people.length > 0 && {
          household: { people: config.people, ...ctx.household, frameOf: personFrames(ctx) },
        }),
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
