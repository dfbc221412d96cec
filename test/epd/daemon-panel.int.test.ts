import { configYaml } from '../helpers/config-yaml.js';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { controllerModel } from '../../display/controllers/index.js';
import { parseCapture } from '../../src/epd/capture-bus.js';
import { panelImageFromPng } from '../../src/epd/panel-image.js';
import { loadPanel } from '../../src/panels/panels.js';
import { ROOT, runCli, startCli, tempConfig } from '../helpers/cli.js';
import { freePort } from '../helpers/free-port.js';
import { httpRequest } from '../helpers/http-client.js';
import { until } from '../helpers/until.js';
import type { ChildProcess } from 'node:child_process';

/**
 * End to end: the real daemon process (dist/cli.js run) drives an attached Waveshare 7.5" V2 over the capture bus;
 * the capture is turned back into the glass by the UC8179 controller model and must be the frame the daemon wrote to
 * its output folder, pixel for pixel. On SIGTERM the panel is left asleep. Then `panel show|info|clear` by hand.
 */

const PANEL = 'waveshare-7in5-v2';
let child: ChildProcess | null = null;

afterEach(async () => {
  if (child !== null && child.exitCode === null) {
    child.kill('SIGKILL');
    await once(child, 'close');
  }
  child = null;
});

/** A config with one attached panel; `extra` are further lines under its `attached:` (indented as its own). */
async function config(extra: string[] = []): Promise<{ dir: string; file: string; port: number; capture: string }> {
  const port = await freePort();
  const yaml = configYaml({
    displays: [
      {
        id: 'hall',
        panel: PANEL,
        schedule: '0 6 * * *',
        more: ['attached:', '  capture: capture/hall.jsonl', ...extra],
      },
    ],
    sections: ['http:', `  listen: 127.0.0.1:${port}`],
  });
  const { dir, file } = await tempConfig(yaml);
  return { dir, file, port, capture: path.join(dir, 'capture', 'hall.jsonl') };
}

/** The glass a capture file leaves, and how many refreshes made it. */
function glassOf(file: string): { indices: Uint8Array; refreshes: number; last: unknown } {
  const ops = parseCapture(readFileSync(file, 'utf8'));
  const model = controllerModel(PANEL);
  model.applyAll(ops);
  return { indices: model.glass(), refreshes: model.refreshes, last: ops.at(-1) };
}

describe('the daemon drives an attached panel (capture bus)', () => {
  it('the frame it publishes comes back through the controller model; SIGTERM leaves the panel asleep', async () => {
    const c = await config();
    child = startCli(['run', '--config', c.file]);
    let log = '';
    child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    const state = await until(
      'the panel refreshed (state.json)',
      async () => {
        const res = await httpRequest(`http://127.0.0.1:${c.port}/displays/hall/state.json`).catch(() => null);
        const s = res?.status === 200 ? res.json<{ attached_panel?: { last_refresh_at: string | null } }>() : null;
        // The file publisher runs beside the panel's: its file may come a moment after the refresh.
        return s?.attached_panel?.last_refresh_at && existsSync(path.join(c.dir, 'frames', 'hall.png')) ? s : null;
      },
      { timeoutMs: 30_000, context: () => log },
    );
    expect(state.attached_panel).toMatchObject({ panel: PANEL, problem: null });

    const framePng = readFileSync(path.join(c.dir, 'frames', 'hall.png'));
    const want = panelImageFromPng(framePng, loadPanel(PANEL));
    const glass = glassOf(c.capture);
    expect(glass.refreshes).toBe(1);
    expect(Buffer.from(glass.indices).equals(Buffer.from(want.indices))).toBe(true);

    child.kill('SIGTERM');
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code).toBe(0);
    // Asleep after the refresh and still asleep after the stop (deep sleep: 0x07 0xa5, epd7in5_V2.py sleep()).
    expect(glassOf(c.capture).last).toEqual({ op: 'cmd', cmd: 0x07, data: 'a5' });
  });
});

describe('the optional bus libraries', () => {
  it('are loaded from node_modules at run time, with their own native addons (the build copies none of them)', async () => {
    const libs = ['spi-device', 'node-libgpiod'].filter((lib) =>
      existsSync(path.join(ROOT, 'node_modules', lib, 'package.json')),
    );
    const c = await config();
    // At exit, the native addons mapped into the process.
    const addons = path.join(c.dir, 'addons');
    const preload = path.join(c.dir, 'addons.mjs');
    writeFileSync(
      preload,
      "import { appendFileSync, readFileSync } from 'node:fs';\n" +
        "process.on('exit', () => appendFileSync(process.env.ADDONS_FILE, readFileSync('/proc/self/maps', 'utf8')));\n",
    );
    const info = await runCli(['panel', 'info', '--panel', PANEL], {
      env: { NODE_OPTIONS: `--import=${pathToFileURL(preload).href}`, ADDONS_FILE: addons },
    });
    expect(info.code, info.stderr).toBe(0);
    const mapped = readFileSync(addons, 'utf8');
    for (const lib of libs) {
      // The addons are built for the Node that ran `npm ci`; .ci/run runs the suite on other majors with the same
      // node_modules, where the CLI must say so instead.
      const loads = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(lib)})`], { cwd: ROOT }).status === 0;
      if (loads) {
        expect(info.stdout).toContain(`${lib} installed`);
        expect(mapped).toContain(`${realpathSync(path.join(ROOT, 'node_modules', lib))}/`);
      } else {
        expect(info.stdout).toContain(`${lib} built for another Node.js (npm rebuild ${lib})`);
      }
    }
  });
});

describe('outfit-display panel', () => {
  it('show --capture puts a PNG on the glass; a PNG of another size is exit 2 with E_PANEL_FRAME', async () => {
    const c = await config();
    const frame = path.resolve(import.meta.dirname, 'frames', `${PANEL}-long.png`);
    const out = path.join(c.dir, 'show.jsonl');
    const ok = await runCli(['panel', 'show', '--panel', PANEL, '--capture', out, frame]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const glass = glassOf(out);
    expect(
      Buffer.from(glass.indices).equals(Buffer.from(panelImageFromPng(readFileSync(frame), loadPanel(PANEL)).indices)),
    ).toBe(true);

    const wrong = path.resolve(import.meta.dirname, 'frames', 'waveshare-4in2-normal.png');
    const bad = await runCli(['panel', 'show', '--panel', PANEL, '--capture', path.join(c.dir, 'bad.jsonl'), wrong]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/E_PANEL_FRAME: the frame is 400x300, the waveshare-7in5-v2 panel shows 800x480/);
    expect(existsSync(path.join(c.dir, 'bad.jsonl'))).toBe(false);
  });

  it('clear leaves the glass white; info names the controller, board and pins from the config', async () => {
    const c = await config(['  pins:', '    busy: 5', '  buttons:', '    d: { action: refresh, pin: 6 }']);
    const cleared = await runCli(['panel', 'clear', '--config', c.file]);
    expect(cleared.code).toBe(0);
    const glass = glassOf(c.capture);
    const white = loadPanel(PANEL).palette.findIndex((p) => p.name === 'white');
    expect(glass.refreshes).toBe(1);
    expect(glass.indices.every((v) => v === white)).toBe(true);

    const info = await runCli(['panel', 'info', '--config', c.file]);
    expect(info.code).toBe(0);
    expect(info.stdout).toContain('UC8179');
    expect(info.stdout).toContain('waveshare-hat');
    expect(info.stdout).toContain('RST GPIO 17, DC GPIO 25, BUSY GPIO 5, PWR GPIO 18');
    expect(info.stdout).toContain('buttons:    D GPIO 6 (refresh); not read with a capture bus');

    const none = await runCli(['panel', 'show', '--panel', 'trmnl', 'x.png']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no driver for the trmnl panel');
  });

  it('info on this machine (no SPI): the Inky board, its pins, what is missing and the fix; the libraries load', async () => {
    const info = await runCli(['panel', 'info', '--panel', 'inky-impression-7in3']);
    expect(info.code).toBe(0);
    expect(info.stdout).toContain('Spectra 6');
    expect(info.stdout).toContain('board:      inky, SPI clock 1 MHz');
    expect(info.stdout).toContain('RST GPIO 27, DC GPIO 22, BUSY GPIO 17, PWR none, CS GPIO 8');
    if (!existsSync('/dev/spidev0.0'))
      expect(info.stdout).toMatch(/spi: +E_PANEL_BUS: no SPI device \/dev\/spidev0\.0: SPI is not enabled/);
    // Installed and loading under this Node; under another major than the one they were built for (CI's later runs
    // over one install), the fix instead.
    const loads = await import('node-libgpiod').then(
      () => true,
      () => false,
    );
    expect(info.stdout).toContain(
      loads
        ? 'libraries:  spi-device installed; node-libgpiod installed'
        : 'libraries:  spi-device built for another Node.js (npm rebuild spi-device); node-libgpiod built for another Node.js (npm rebuild node-libgpiod)',
    );
  });

  it('without SPI on this machine: exit 1 with E_PANEL_BUS naming the fix', async () => {
    const frame = path.resolve(import.meta.dirname, 'frames', `${PANEL}-normal.png`);
    const res = await runCli(['panel', 'show', '--panel', PANEL, frame]);
    // This machine has no /dev/spidev0.0 (a Pi with SPI enabled would show the frame).
    if (existsSync('/dev/spidev0.0')) return;
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /E_PANEL_BUS: no SPI device \/dev\/spidev0\.0: SPI is not enabled; enable SPI: add dtparam=spi=on/,
    );
  });
});
