import type { PublisherPlugin } from '../publish/plugin.js';
import type { ProblemSource } from '../state/problems.js';
import { WEBHOOK_SOURCE } from './source.js';

/** How the webhook's problem reads on the status page, /healthz, state.json and the diagnostics. */
export const WEBHOOK_PROBLEMS: ProblemSource = {
  source: WEBHOOK_SOURCE,
  label: 'Webhook',
  health: 'the webhook does not get the frames',
};

/** The webhook (`webhook:`): each new frame and its state POSTed as JSON to a URL (docs/guides/webhook.md). */
export const webhookPlugin: PublisherPlugin = {
  name: 'webhook',
  configKey: 'webhook',
  enabled: (config) => config.webhook !== undefined,
  problems: [WEBHOOK_PROBLEMS],
  async build(ctx) {
    const { config } = ctx.loaded;
    const webhook = config.webhook!;
    const { WebhookPublisher } = await import('./webhook-publisher.js');
    return new WebhookPublisher({
      url: webhook.url,
      headers: webhook.headers,
      timeoutMs: webhook.timeout_s * 1000,
      timezone: config.timezone,
      problems: ctx.problems,
      clock: ctx.clock,
      logger: ctx.logger.child({ part: 'webhook' }),
    });
  },
};
