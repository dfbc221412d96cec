import type { PublisherPlugin } from '../publish/plugin.js';
import { renderContext } from '../render/display-frame.js';
import { TAG_PROBLEMS, TagStatusBook } from '../state/tag-status.js';

/**
 * OpenEPaperLink tags (`openepaperlink:`): the publisher (and its JPEG encoder) loads only when the config has an
 * access point. Each tag's problem goes on the display's problem list (source 'tag', keyed by MAC).
 */
export const openEPaperLinkPlugin: PublisherPlugin = {
  name: 'openepaperlink',
  configKey: 'openepaperlink',
  enabled: (config) => config.openepaperlink !== undefined,
  problems: [TAG_PROBLEMS],
  async build(ctx) {
    const { config } = ctx.loaded;
    const oepl = config.openepaperlink!;
    const { OeplPublisher } = await import('./oepl-publisher.js');
    return new OeplPublisher({
      accessPoint: oepl.access_point,
      tags: oepl.tags,
      render: renderContext(ctx.loaded),
      ...(ctx.draw !== undefined && { draw: ctx.draw }),
      status: new TagStatusBook(ctx.problems),
      stateDir: config.state_dir,
      clock: ctx.clock,
      logger: ctx.logger.child({ part: 'oepl' }),
      ...(ctx.quietEnd !== undefined && { quietEnd: ctx.quietEnd }),
    });
  },
};
