import { afterEach, describe, expect, it } from 'vitest';
import { httpRequest } from '../helpers/http-client.js';
import { until } from '../helpers/until.js';
import { startReceiver, type Receiver } from '../webhook/receiver.js';
import { daemonTests } from './helpers.js';
import { watch } from '../helpers/mqtt-watch.js';

/**
 * The daemon with a `webhook:` section (the registry builds the webhook only then), against a receiver that fails
 * and then takes the frame: the frame arrives, and meanwhile the failure is the display's problem on /healthz,
 * state.json, the status page and, through Mosquitto, Home Assistant's diagnostics, none of which knows of webhooks;
 * the POST taken clears it everywhere.
 */

const t = daemonTests({ broker: true });
let receiver: Receiver | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

describe('the daemon with a webhook', () => {
  it('POSTs the frame, shows the webhook’s failure everywhere an owner looks (MQTT too), and clears it when taken', async () => {
    receiver = await startReceiver();
    const w = await watch(t.broker().url, ['outfit-display/hallway/diagnostics']);
    const diag = (): { problems?: string[] } | null => {
      const m = w.latest('outfit-display/hallway/diagnostics');
      return m === undefined ? null : (JSON.parse(m.payload.toString()) as { problems?: string[] });
    };
    try {
      const r = await t.rig({
        mqttUrl: t.broker().url,
        sections: ['webhook:', `  url: ${receiver.url}/hook/s3cr3t-id`],
      });
      receiver.script.push(500);
      expect((await r.daemon.runOnce('hallway', 'schedule')).get('hallway')?.outcome).toBe('fresh');
      await until('the first POST', () => receiver!.posts.length === 1);
      const health = await until('/healthz with the webhook problem', async () => {
        const h = await httpRequest(`${r.http}/healthz`);
        return h.status === 503
          ? h.json<{ displays: Array<{ reason: string; problems: Array<{ source: string; code: string }> }> }>()
          : null;
      });
      expect(health.displays[0]!.problems).toMatchObject([{ source: 'webhook', code: 'E_WEBHOOK_POST' }]);
      expect(health.displays[0]!.reason).toContain('the webhook does not get the frames: E_WEBHOOK_POST: ');
      const state = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<{
        problems: Array<{ source: string; code: string }>;
      }>();
      expect(state.problems).toMatchObject([{ source: 'webhook', code: 'E_WEBHOOK_POST' }]);
      expect((await httpRequest(`${r.http}/`)).text()).toContain('<th>Webhook</th>');
      // The problem came after the publish round: MQTT hears of it through the views and sends the diagnostics again.
      await w.waitFor(
        () => diag()?.problems?.some((p) => p.startsWith('E_WEBHOOK_POST: ')) === true,
        'diagnostics with the webhook problem',
      );
      expect(JSON.stringify(diag())).not.toContain('s3cr3t');

      // The retry, on the daemon's clock, is taken: the problem is gone everywhere.
      await until('the retry taken', () => (r.clock.advance(1_000), receiver!.posts.length === 2), { everyMs: 20 });
      await until('/healthz 200', async () => (await httpRequest(`${r.http}/healthz`)).status === 200);
      await w.waitFor(() => diag()?.problems?.length === 0, 'diagnostics without the webhook problem');
      const body = receiver.posts[1]!.body;
      expect(body.display).toBe('hallway');
      expect(body.frame.png_base64.length).toBeGreaterThan(0);
      expect(receiver.posts[1]!.path).toBe('/hook/s3cr3t-id');
    } finally {
      await w.close();
    }
  }, 60_000);
});
