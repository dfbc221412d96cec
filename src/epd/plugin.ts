import type { PublisherPlugin } from '../publish/plugin.js';
import { PANEL_PROBLEMS } from '../state/panel-status.js';

/**
 * A panel on this machine's header (`displays[].attached`): its driver and bus libraries load only when a display has
 * one. Its last refresh and problem go to the panels' status book, which the views read.
 */
export const attachedPanelPlugin: PublisherPlugin = {
  name: 'panel',
  configKey: null,
  enabled: (config) => config.displays.some((d) => d.attached !== undefined),
  problems: [PANEL_PROBLEMS],
  async build(ctx) {
    const { config, panels } = ctx.loaded;
    const { PanelPublisher } = await import('./panel-publisher.js');
    return new PanelPublisher({
      displays: config.displays,
      panels,
      clock: ctx.clock,
      logger: ctx.logger,
      status: ctx.panels,
      stateDir: config.state_dir,
    });
  },
};
