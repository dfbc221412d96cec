/** The problem source (src/state/problems.ts) the webhook reports under: its own name. */
export const WEBHOOK_SOURCE = 'webhook';
