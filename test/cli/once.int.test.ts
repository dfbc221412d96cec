import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import { runCli, simulatedConfig, startCli, tempConfig } from '../helpers/cli.js';
import { startSimProcess } from '../helpers/service-sim-process.js';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(path.join(entry.parentPath, entry.name));
  }
  return out;
}

describe('once against the simulated service', () => {
  it('writes a panel-sized PNG and the Recommendation JSON, and exits 0', async () => {
    const { dir, file } = await tempConfig(simulatedConfig());
    const res = await runCli(['once', '--config', file]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);

    const png = PNG.sync.read(await readFile(path.join(dir, 'frames/hallway.png')));
    expect([png.width, png.height]).toEqual([800, 480]);
    const rec = JSON.parse(await readFile(path.join(dir, 'frames/hallway.json'), 'utf8')) as Record<string, unknown>;
    expect(rec).toMatchObject({
      outfit: expect.any(String),
      weather: expect.objectContaining({ source: expect.any(String) }),
    });
    expect(Date.parse(rec.fetched_at as string)).toBeGreaterThan(Date.now() - 60_000);
    // Nothing half-written is left behind.
    expect((await readdir(path.join(dir, 'frames'))).sort()).toEqual(['hallway.json', 'hallway.png']);
  });

  it('runs every display when the first one fails: each gets its frame, and the exit is the worst outcome', async () => {
    const sim = await startSimProcess();
    try {
      const displays = ['kitchen', 'hallway']
        .map(
          (id) => `  - id: ${id}\n    lat: 48.1\n    lon: 11.6\n    panel: waveshare-4in2\n    schedule: "0 7 * * *"`,
        )
        .join('\n');
      const { dir, file } = await tempConfig(simulatedConfig({ baseUrl: sim.url, keyFile: 'key', displays }));
      await writeFile(path.join(dir, 'key'), `${DEMO_API_KEY}\n`, { mode: 0o600 });
      // The first display's purchase meets a 500; the second one's goes through.
      await sim.injectFault({ kind: 'status', status: 500, count: 1 });
      const res = await runCli(['once', '--config', file]);
      expect(res.code).toBe(1);
      expect((await readdir(path.join(dir, 'frames'))).sort()).toEqual(['hallway.json', 'hallway.png', 'kitchen.png']);
      const hallway = JSON.parse(await readFile(path.join(dir, 'frames/hallway.json'), 'utf8')) as { outfit: string };
      expect(hallway.outfit.length).toBeGreaterThan(0);
      // The failed display's frame is its error screen, panel-sized.
      const png = PNG.sync.read(await readFile(path.join(dir, 'frames/kitchen.png')));
      expect([png.width, png.height]).toEqual([400, 300]);
      const paths = (await sim.stats()).requests.map((r) => [r.path, r.status]);
      expect(paths).toEqual([
        ['/v1/recweather', 500],
        ['/v1/recweather', 200],
      ]);
    } finally {
      await sim.stop();
    }
  });

  it('runs one display with --display, and refuses an unknown one with exit 2', async () => {
    const displays = ['kitchen', 'hallway']
      .map((id) => `  - id: ${id}\n    lat: 48.1\n    lon: 11.6\n    panel: waveshare-4in2\n    schedule: "0 * * * *"`)
      .join('\n');
    const { dir, file } = await tempConfig(simulatedConfig({ displays }));
    const res = await runCli(['once', '--config', file, '--display', 'kitchen']);
    expect(res.code).toBe(0);
    expect(await readdir(path.join(dir, 'frames'))).toEqual(['kitchen.json', 'kitchen.png']);
    const png = PNG.sync.read(await readFile(path.join(dir, 'frames/kitchen.png')));
    expect([png.width, png.height]).toEqual([400, 300]);

    const bad = await runCli(['once', '--config', file, '--display', 'garage']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no display with id "garage"');
  });

  it('exits 3 with the service message when the key is rejected, and logs never contain the key', async () => {
    const { file } = await tempConfig(simulatedConfig());
    const key = 'sk_live_this_key_was_revoked_42';
    const res = await runCli(['once', '--config', file], { env: { OUTFIT_API_KEY: key } });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/^API key rejected: .+/m);
    expect(res.stdout + res.stderr).not.toContain(key);
  });

  it('exits 4 when the budget is used up, keeping the last good outfit with a budget mark on the frame', async () => {
    const { dir, file } = await tempConfig(simulatedConfig().replace('credits_per_day: 300', 'credits_per_day: 5'));
    expect((await runCli(['once', '--config', file])).code).toBe(0); // 3 of 5 credits
    const good = await readFile(path.join(dir, 'frames/hallway.json'), 'utf8');
    const goodFrame = await readFile(path.join(dir, 'frames/hallway.png'));
    const res = await runCli(['once', '--config', file]); // 3 more would make 6
    expect(res.code).toBe(4);
    expect(res.stdout).toContain('"code":"W_BUDGET_EXHAUSTED"');
    expect(await readFile(path.join(dir, 'frames/hallway.json'), 'utf8')).toBe(good);
    const marked = await readFile(path.join(dir, 'frames/hallway.png'));
    expect(marked.equals(goodFrame)).toBe(false);
    const png = PNG.sync.read(marked);
    expect([png.width, png.height]).toEqual([800, 480]);
  });

  it('exits 2 with a bad config, listing every problem with its key path', async () => {
    const { file } = await tempConfig(
      simulatedConfig({ displays: '  - id: Hall Way\n    lat: 123\n    lon: 13\n    colour: red' }),
    );
    const res = await runCli(['once', '--config', file]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('3 problems');
    expect(res.stderr).toContain('displays[0].id: must match [a-z0-9_-]+');
    expect(res.stderr).toContain('displays[0].lat: must be between -90 and 90');
    expect(res.stderr).toContain('displays[0].colour: unknown key');
    expect(res.stdout).toBe('');
  });
});

describe('once against the simulated service in its own process', () => {
  it('talks to `service-sim` over HTTP with a key file, and no log line, file or message holds the key', async () => {
    const sim = startCli(['service-sim', '--port', '0']);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        sim.stdout?.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /simulated outfit service at (\S+)/.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
        sim.on('exit', (code) => reject(new Error(`service-sim exited ${code}`)));
      });
      const { dir, file } = await tempConfig('');
      await writeFile(path.join(dir, 'key'), `${DEMO_API_KEY}\n`, { mode: 0o600 });
      await writeFile(file, simulatedConfig({ baseUrl: url, keyFile: 'key' }));
      const res = await runCli(['once', '--config', file]);
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('"new recommendation"');
      expect(res.stdout + res.stderr).not.toContain(DEMO_API_KEY);
      for (const f of await filesUnder(dir)) {
        if (f.endsWith('/key')) continue;
        expect((await readFile(f)).includes(DEMO_API_KEY), f).toBe(false);
      }
      expect((await stat(path.join(dir, 'frames/hallway.png'))).size).toBeGreaterThan(0);
    } finally {
      sim.kill('SIGTERM');
    }
  });
});
