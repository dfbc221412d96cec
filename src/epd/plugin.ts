import type { Logger } from 'pino';
import type { ButtonActionConfig } from '../config/schema.js';
import type { PublisherContext, PublisherPlugin } from '../publish/plugin.js';
import { PANEL_PROBLEMS } from '../state/panel-status.js';

/**
 * A panel on this machine's header (`displays[].attached`): its driver and bus libraries load only when a display has
 * one. Its last refresh and problem go to the panels' status book, which the views read. Its board's buttons
 * (`attached.buttons`) press as a TRMNL device's button does: a refresh as Home Assistant's, or a warmth vote.
 */
export const attachedPanelPlugin: PublisherPlugin = {
  name: 'panel',
  configKey: null,
  enabled: (config) => config.displays.some((d) => d.attached !== undefined),
  problems: [PANEL_PROBLEMS],
  async build(ctx) {
    const { config, panels } = ctx.loaded;
    const { PanelPublisher } = await import('./panel-publisher.js');
    const logger = ctx.logger.child({ part: 'panel' });
    return new PanelPublisher({
      displays: config.displays,
      panels,
      clock: ctx.clock,
      logger: ctx.logger,
      status: ctx.panels,
      stateDir: config.state_dir,
      onButton: (id, action) => press(ctx, logger, id, action),
      ...(ctx.importOptional !== undefined && { importer: ctx.importOptional }),
    });
  },
};

/** A board button's press: the vote into the warmth book (as MQTT's), or the refresh Home Assistant's button makes. */
function press(ctx: PublisherContext, log: Logger, displayId: string, action: ButtonActionConfig): void {
  if (action.action === 'vote') {
    log.debug({ display: displayId, person: action.person, vote: action.vote }, "an attached panel's button voted");
    // The loader refuses a vote button without people, so the household is there.
    ctx.household?.warmth.vote(action.person, action.vote);
    return;
  }
  log.debug({ display: displayId }, "an attached panel's button asked for a refresh");
  ctx.refresh(displayId).then(
    (r) => {
      // A refusal (the refresh gate, the budget) is shown where Home Assistant's would be.
      if (r?.refused === true) log.debug({ display: displayId }, "a refresh by an attached panel's button was refused");
    },
    (err: unknown) => log.error({ display: displayId, err }, "a refresh by an attached panel's button failed"),
  );
}
