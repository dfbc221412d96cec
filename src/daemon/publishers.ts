import type { Logger } from 'pino';
import type { LoadedConfig } from '../config/load.js';
import type { DisplayRuns } from './display-runner.js';
import type { DisplayViewSource } from '../state/display-views.js';
import type { Publisher } from '../publish/publisher.js';
import { DeviceRegistry } from '../publish/devices.js';
import type { Clock } from '../time/clock.js';
import { PanelStatusBook } from '../state/panel-status.js';
import { ProblemBook } from '../state/problems.js';
import type { DrawFrame } from '../render/display-frame.js';
import type { HouseholdContext } from '../publish/plugin.js';
import type { PresenceBook } from '../household/presence-book.js';
import { PUBLISHER_PLUGINS } from './publisher-registry.js';

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
  /** Where the attached panels' refreshes and problems go (the views read it); absent: a book of its own. */
  panels?: PanelStatusBook;
  /** Where the publishers' problems go (the views read it); absent: a book of its own. */
  problems?: ProblemBook;
  /** Draws the TRMNL images that need drawing again (the daemon's drawer); default in this process. */
  draw?: DrawFrame;
  /** The household's books (config `people`); absent: no people. */
  household?: HouseholdContext;
  /** Who is at home (the household's presence book); absent: no presence topics are read. */
  presence?: PresenceBook;
  /** The end of a display's quiet hours holding now, or null (household-gate.ts). */
  quietEnd?: (displayId: string) => number | null;
  /** Imports an optional native library in place of Node's import (tests: a stand-in for the header's GPIO). */
  importOptional?: (lib: string) => Promise<unknown>;
}

/**
 * The publishers the config asks for, as the registry lists them (publisher-registry.ts): always the files; each other
 * when its section exists. Each is imported only then, so a daemon without MQTT never loads mqtt.
 */
export async function buildPublishers(loaded: LoadedConfig, deps: PublisherDeps): Promise<Publisher[]> {
  const ctx = {
    loaded,
    logger: deps.logger,
    clock: deps.clock,
    views: deps.views,
    refresh: (id: string) => deps.runs.refresh(id),
    refreshUnavailable: deps.refreshUnavailable,
    schedules: deps.schedules,
    problems: deps.problems ?? new ProblemBook(),
    panels: deps.panels ?? new PanelStatusBook(),
    devices: new DeviceRegistry(),
    ...(deps.draw !== undefined && { draw: deps.draw }),
    ...(deps.household !== undefined && { household: deps.household }),
    ...(deps.presence !== undefined && { presence: deps.presence }),
    ...(deps.quietEnd !== undefined && { quietEnd: deps.quietEnd }),
    ...(deps.importOptional !== undefined && { importOptional: deps.importOptional }),
  };
  const publishers: Publisher[] = [];
  for (const plugin of PUBLISHER_PLUGINS) if (plugin.enabled(loaded.config)) publishers.push(await plugin.build(ctx));
  return publishers;
}
