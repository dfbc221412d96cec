import path from 'node:path';
import { secretValues } from '../config/secrets.js';
import type { PublisherPlugin } from '../publish/plugin.js';
import { renderContext } from '../render/display-frame.js';
import { DeviceBook } from '../state/device-book.js';
import { FIRMWARE_OFFERS_FILE, FirmwareOffers } from '../trmnl/firmware-offers.js';
import { PAIRING_FILE, TrmnlPairing } from '../trmnl/pairing.js';

/**
 * The HTTP frame server (`http:`): frames, state.json, the status page, /healthz, Home Assistant ingress, and the
 * TRMNL devices it serves (`trmnl:`), which it adds to the device registry with their pairing, so that MQTT's button
 * opens it. It reports no problem of its own: a port it cannot listen on stops the start.
 */
export const httpPlugin: PublisherPlugin = {
  name: 'http',
  configKey: 'http',
  enabled: (config) => config.http !== undefined,
  problems: [],
  async build(ctx) {
    const { config, secrets } = ctx.loaded;
    const http = config.http!;
    const trmnlDevices = config.trmnl?.devices ?? [];
    const logger = ctx.logger.child({ part: 'http' });
    const pairing = new TrmnlPairing({ file: path.join(config.state_dir, PAIRING_FILE), clock: ctx.clock, logger });
    // The devices that pull frames report here (the server closes the book when it stops); MQTT announces them.
    const devices = new DeviceBook({ clock: ctx.clock, logger });
    const macsOf = (id: string): string[] => trmnlDevices.filter((d) => d.display === id).map((d) => d.mac);
    ctx.devices.book = devices;
    ctx.devices.add({
      kind: 'trmnl',
      macs: macsOf,
      pair: (id) => pairing.open(macsOf(id).map((m) => m.toUpperCase())),
    });
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
            clock: ctx.clock,
            logger,
          });
    const { HttpPublisher } = await import('./http-publisher.js');
    return new HttpPublisher({
      listen: http.listen,
      displays: config.displays,
      timezone: config.timezone,
      clock: ctx.clock,
      views: ctx.views,
      budgetLimits: {
        perDay: config.budget.credits_per_day ?? null,
        perMonth: config.budget.credits_per_month ?? null,
      },
      refresh: (id) => ctx.refresh(id),
      refreshUnavailable: ctx.refreshUnavailable,
      trmnlDevices: trmnlDevices.map((d) => ({
        mac: d.mac,
        display: d.display,
        format: d.format,
        ...(d.panel !== undefined && { panel: d.panel }),
        ...(d.button !== undefined && { button: d.button }),
        ...(d.person !== undefined && { person: d.person }),
      })),
      // A device's button may vote for a person (trmnl.devices[].button): into the household's warmth book.
      ...(ctx.household !== undefined && { vote: (p, v) => ctx.household!.warmth.vote(p, v) }),
      trmnlTokens: secrets.trmnlTokens,
      render: renderContext(ctx.loaded),
      ...(ctx.draw !== undefined && { draw: ctx.draw }),
      secrets: secretValues(secrets),
      publicUrl: http.public_url ?? null,
      allowedHosts: http.allowed_hosts,
      pairing,
      devices,
      ...(firmware !== undefined && { firmware }),
      logger,
    });
  },
};
