import path from 'node:path';
import type { Logger } from 'pino';
import { CronTimes, longestGapMs } from '../budget/cron-times.js';
import type { LoadedConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { DisplayRuns } from './display-runner.js';
import type { DisplayViewSource } from '../state/display-views.js';
import { FilePublisher } from '../publish/file-publisher.js';
import { expireAfterFromGap } from '../mqtt/ha-discovery.js';
import type { Publisher } from '../publish/publisher.js';
import { PAIRING_FILE, TrmnlPairing } from '../trmnl/pairing.js';
import { FIRMWARE_OFFERS_FILE, FirmwareOffers } from '../trmnl/firmware-offers.js';
import { DeviceBook } from '../state/device-book.js';
import type { Clock } from '../time/clock.js';
import { PanelStatusBoard } from '../state/panel-status.js';
import { TagStatusBoard } from '../state/tag-status.js';
import { secretValues } from '../config/secrets.js';
import { renderContext, type DrawFrame } from '../render/display-frame.js';

/** What the publishers are given by the daemon: one read-only view of each display, and a way to ask for a refresh. */
export interface PublisherDeps {
  logger: Logger;
  /** The daemon's clock, for every publisher's times and timers. */
  clock: Clock;
  /** Every display as state.json, the status page and MQTT show it, and the budget's figures. */
  views: DisplayViewSource;
  /** A refresh press (MQTT button, the status page) goes to runs.refresh: through the budget's reserve, coalesced. */
  runs: Pick<DisplayRuns, 'refresh'>;
  /** Why refreshing is off (no refresh reserve), or null: the status page then has no button, HA's is unavailable. */
  refreshUnavailable: string | null;
  /** The schedules that run (resolveSchedules, worked out once by the daemon: "auto" resolved, paced over budget). */
  schedules: ReadonlyMap<string, string>;
  /** Where the attached panels' refreshes and problems go (the views read it); absent: a board of its own. */
  panels?: PanelStatusBoard;
  /** Where the OpenEPaperLink tags' problems go (the views read it); absent: a board of its own. */
  tags?: TagStatusBoard;
  /** Draws the TRMNL images that need drawing again (the daemon's drawer); default in this process. */
  draw?: DrawFrame;
}

const DAY_MS = 86_400_000;

/**
 * How long each display's readings count as current in Home Assistant (expire_after): twice the longest gap of its
 * schedule plus five minutes; null for a schedule that fires less than twice in 8 days.
 */
function freshnessSeconds(config: Config, schedules: ReadonlyMap<string, string>, now: number): Map<string, number | null> {
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
  const publishers: Publisher[] = [new FilePublisher({ outputDir: config.output_dir, timezone: config.timezone })];
  const trmnlDevices = config.trmnl?.devices ?? [];
  const freshFor = freshnessSeconds(config, deps.schedules, deps.clock.now());

  // TRMNL pairing is the HTTP server's, opened also by the Home Assistant button (MQTT): built before both.
  const httpLogger = logger.child({ part: 'http' });
  const pairing = config.http ? new TrmnlPairing({ file: path.join(config.state_dir, PAIRING_FILE), clock: deps.clock, logger: httpLogger }) : null;
  // The devices that pull frames report to the HTTP server (which closes the book when it stops); MQTT announces them.
  const devices = config.http ? new DeviceBook({ clock: deps.clock, logger: httpLogger }) : undefined;
  const mqtt = config.mqtt;
  const mqttPublisher = mqtt && new (await import('../mqtt/mqtt-publisher.js')).MqttPublisher({
    mqtt,
    password: secrets.mqttPassword,
    displays: config.displays,
    timezone: config.timezone,
    clock: deps.clock,
    logger,
    onRefresh: (id) => deps.runs.refresh(id),
    refreshUnavailable: deps.refreshUnavailable,
    views: deps.views,
    expireAfterS: (id) => freshFor.get(id) ?? null,
    haDiscovery: (id) => mqtt.discovery && (config.displays.find((d) => d.id === id)?.home_assistant ?? false),
    hasDevice: (id) => trmnlDevices.some((d) => d.display === id),
    ...(devices !== undefined && { devices }),
    trmnlMacs: (id) => trmnlDevices.filter((d) => d.display === id).map((d) => d.mac),
    // The Home Assistant pairing button: TRMNL devices are served (and paired) by the HTTP publisher.
    onPair: (id) => pairing?.open(trmnlDevices.filter((d) => d.display === id).map((d) => d.mac.toUpperCase())),
    ...(mqtt.client_id !== undefined && { clientId: mqtt.client_id }),
  });
  if (mqttPublisher) publishers.push(mqttPublisher);

  // A panel on this machine's header: its driver and bus libraries load only when a display has one.
  if (config.displays.some((d) => d.attached !== undefined)) {
    const status = deps.panels ?? new PanelStatusBoard();
    // A refresh ends after its publish round: MQTT sends the diagnostics again then.
    status.onChange((id) => mqttPublisher?.panelChanged(id));
    const { PanelPublisher } = await import('../epd/panel-publisher.js');
    publishers.push(new PanelPublisher({ displays: config.displays, panels: loaded.panels, clock: deps.clock, logger, status, stateDir: config.state_dir }));
  }

  // OpenEPaperLink tags: the publisher (and its JPEG encoder) loads only when the config has an access point.
  const oepl = config.openepaperlink;
  if (oepl !== undefined) {
    const tags = deps.tags ?? new TagStatusBoard();
    tags.onChange((id) => mqttPublisher?.panelChanged(id));
    const { OeplPublisher } = await import('../oepl/oepl-publisher.js');
    publishers.push(
      new OeplPublisher({
        accessPoint: oepl.access_point,
        tags: oepl.tags,
        render: renderContext(loaded),
        ...(deps.draw !== undefined && { draw: deps.draw }),
        status: tags,
        stateDir: config.state_dir,
        clock: deps.clock,
        logger: logger.child({ part: 'oepl' }),
      }),
    );
  }

  if (config.http) {
    const http = config.http;
    // Opt-in twice: the folder (trmnl.firmware) and each device (firmware_updates: true).
    const fw = config.trmnl?.firmware;
    const firmware =
      fw === undefined
        ? undefined
        : new FirmwareOffers({
            dir: fw.dir,
            batteryFloorPct: fw.battery_floor_pct,
            allowed: trmnlDevices.filter((d) => d.firmware_updates).map((d) => d.mac),
            stateFile: path.join(config.state_dir, FIRMWARE_OFFERS_FILE),
            clock: deps.clock,
            logger: httpLogger,
          });
    const { HttpPublisher } = await import('../http/http-publisher.js');
    publishers.push(
      new HttpPublisher({
        listen: http.listen,
        displays: config.displays,
        timezone: config.timezone,
        clock: deps.clock,
        views: deps.views,
        budgetLimits: { perDay: config.budget.credits_per_day ?? null, perMonth: config.budget.credits_per_month ?? null },
        refresh: (id) => deps.runs.refresh(id),
        refreshUnavailable: deps.refreshUnavailable,
        trmnlDevices: trmnlDevices.map((d) => ({ mac: d.mac, display: d.display, format: d.format, ...(d.panel !== undefined && { panel: d.panel }) })),
        trmnlTokens: secrets.trmnlTokens,
        render: renderContext(loaded),
        ...(deps.draw !== undefined && { draw: deps.draw }),
        secrets: secretValues(secrets),
        publicUrl: http.public_url ?? null,
        allowedHosts: http.allowed_hosts,
        pairing: pairing ?? undefined,
        ...(devices !== undefined && { devices }),
        ...(firmware !== undefined && { firmware }),
        logger: httpLogger,
      }),
    );
  }
  return publishers;
}
