import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { httpRequest } from '../helpers/http-client.js';
import { until } from '../helpers/until.js';
import { daemonTests, linesWithCode } from './helpers.js';
import { watch } from '../helpers/mqtt-watch.js';

/**
 * A panel attached to a header that has no SPI (this machine's: /dev/spidev9.9 does not exist, a real failure): the
 * other publishers get every frame, and the panel's problem (E_PANEL_BUS, naming dtparam=spi=on) is shown on the
 * status page, state.json, /healthz and in Home Assistant's diagnostics, with its own problem entity.
 */

const t = daemonTests({ broker: true });

describe('an attached panel that fails', () => {
  it('never blocks the other publishers, and shows everywhere an owner looks', async () => {
    const w = await watch(t.broker().url, ['outfit-display/hallway/diagnostics', 'homeassistant/device/+/config']);
    const r = await t.rig({
      mqttUrl: t.broker().url,
      display: ['attached:', '  spi_device: /dev/spidev9.9', '  gpio_chip: pinctrl-bcm2711'],
    });
    const first = await r.daemon.runOnce('hallway', 'schedule');
    expect(first.get('hallway')?.outcome).toBe('fresh');

    const state = await until('state.json with the panel problem', async () => {
      const s = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<{
        attached_panel?: { problem: { code: string; message: string } | null };
      }>();
      return s.attached_panel?.problem ? s : null;
    });
    expect(state.attached_panel).toMatchObject({
      panel: 'waveshare-4in2',
      last_refresh_at: null,
      problem: { code: 'E_PANEL_BUS' },
    });
    expect(state.attached_panel?.problem?.message).toContain('dtparam=spi=on');

    // The frame went out to the others all the same.
    const frame = await httpRequest(`${r.http}/displays/hallway/frame.png`);
    expect(frame.status).toBe(200);
    expect(PNG.sync.read(frame.body).width).toBe(400);
    expect(r.published.length).toBeGreaterThan(0);

    const health = await httpRequest(`${r.http}/healthz`);
    expect(health.status).toBe(503);
    expect(health.json<{ displays: { panel_problem: string }[] }>().displays[0]!.panel_problem).toMatch(
      /^E_PANEL_BUS: no SPI device \/dev\/spidev9\.9/,
    );
    const page = (await httpRequest(`${r.http}/`)).text();
    expect(page).toContain('Attached panel');
    expect(page).toContain('E_PANEL_BUS');

    await w.waitFor(() => {
      const d = w.latest('outfit-display/hallway/diagnostics');
      return (
        d !== undefined &&
        String((JSON.parse(d.payload.toString()) as { panel_problem?: unknown }).panel_problem).startsWith(
          'E_PANEL_BUS',
        )
      );
    }, 'diagnostics with the panel problem');
    const discovery = w.all.find((m) => m.topic.startsWith('homeassistant/device/') && m.payload.length > 0);
    const components = (
      JSON.parse(discovery!.payload.toString()) as {
        components: Record<string, { platform: string; device_class?: string }>;
      }
    ).components;
    expect(components.panel_problem).toMatchObject({ platform: 'binary_sensor', device_class: 'problem' });
    expect(components.panel_last_refresh).toMatchObject({ platform: 'sensor', device_class: 'timestamp' });
    expect(linesWithCode(r.logText(), 'E_PANEL_BUS').some((l) => l.level === 50)).toBe(true);
    await w.close();
  });
});
