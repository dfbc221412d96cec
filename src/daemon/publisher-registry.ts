import { attachedPanelPlugin } from '../epd/plugin.js';
import { httpPlugin } from '../http/plugin.js';
import { mqttPlugin } from '../mqtt/plugin.js';
import { openEPaperLinkPlugin } from '../oepl/plugin.js';
import { filesPlugin } from '../files/plugin.js';
import type { PublisherPlugin } from '../publish/plugin.js';
import type { ProblemSource } from '../state/problems.js';
import { webhookPlugin } from '../webhook/plugin.js';

/**
 * Every publisher the daemon knows, one line each (docs/contributing/recipes.md, "Adding a publisher"). Each is built
 * when the config asks for it, in this order: HTTP before MQTT, since HTTP adds the devices it serves to the device
 * registry and MQTT announces them to Home Assistant.
 */
export const PUBLISHER_PLUGINS: readonly PublisherPlugin[] = [
  filesPlugin,
  httpPlugin,
  mqttPlugin,
  attachedPanelPlugin,
  openEPaperLinkPlugin,
  webhookPlugin,
];

/** How every publisher's problems read: the views are given them, so /healthz and the rest show them by name. */
export const PUBLISHER_PROBLEM_SOURCES: readonly ProblemSource[] = PUBLISHER_PLUGINS.flatMap((p) => p.problems);
