import { OUTPUT_PROBLEMS } from '../state/output-problem.js';
import { FilePublisher } from './file-publisher.js';
import type { PublisherPlugin } from '../publish/plugin.js';

/**
 * The frame files (`output_dir`): always on. A write that fails rejects its publish with E_OUTPUT_WRITE, which the
 * cycle keeps as the display's 'output' problem until a write succeeds.
 */
export const filesPlugin: PublisherPlugin = {
  name: 'files',
  configKey: 'output_dir',
  enabled: () => true,
  problems: [OUTPUT_PROBLEMS],
  build: (ctx) =>
    Promise.resolve(
      new FilePublisher({ outputDir: ctx.loaded.config.output_dir, timezone: ctx.loaded.config.timezone }),
    ),
};
