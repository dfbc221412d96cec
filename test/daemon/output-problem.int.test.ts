import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { codesIn } from '../../src/shared/codes.js';
import { DisplayCycle } from '../../src/daemon/cycle.js';
import { DisplayBook } from '../../src/state/display-book.js';
import { DisplayViews } from '../../src/state/display-views.js';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import { diagnosticsPayload } from '../../src/state/state-payload.js';
import { FilePublisher } from '../../src/files/file-publisher.js';
import { displayRenderOptions } from '../../src/render/display-frame.js';
import { LastGoodStore } from '../../src/store/last-good.js';
import { writeFileAtomic } from '../../src/store/atomic-write.js';
import { ROOT } from '../helpers/cli.js';
import { httpRequest } from '../helpers/http-client.js';
import { daemonTests, linesWithCode } from './helpers.js';
import { testViews } from '../helpers/views.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { display } from '../fixtures/display.js';
import { manualClock } from '../helpers/fake-clock.js';
import { rec } from '../fixtures/rec.js';
import { update } from '../fixtures/frames.js';
import { watch } from '../helpers/mqtt-watch.js';

/**
 * Frame files that cannot be written (a full output_dir was only logged, /healthz 200, status ok): the
 * other publishers keep every frame, and E_OUTPUT_WRITE is shown where an owner looks until a write succeeds again.
 */

const t = daemonTests({ broker: true });

describe('frame files that cannot be written', () => {
  it('a folder in the way of <id>.png: HTTP and MQTT keep working, E_OUTPUT_WRITE everywhere, cleared by the next write', async () => {
    const w = await watch(t.broker().url, ['outfit-display/hallway/diagnostics']);
    const png = (dir: string): string => path.join(dir, 'frames', 'hallway.png');
    // A real fault, whoever runs the test (root too): the rename over the frame's name meets a folder (EISDIR).
    const r = await t.rig({
      mqttUrl: t.broker().url,
      prepare: (dir) => mkdir(path.join(png(dir), 'in-the-way'), { recursive: true }).then(() => undefined),
    });
    const first = await r.daemon.runOnce('hallway', 'schedule');
    expect(first.get('hallway')?.outcome).toBe('fresh');

    // The other publishers have the frame: HTTP serves it, the test's own publisher got it.
    const frame = await httpRequest(`${r.http}/displays/hallway/frame.png`);
    expect(frame.status).toBe(200);
    expect(PNG.sync.read(frame.body).width).toBe(400);
    expect(r.published.length).toBeGreaterThan(0);

    const state = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Record<string, unknown>>();
    expect(state.output_problem).toMatchObject({
      code: 'E_OUTPUT_WRITE',
      file: png(r.dir),
      message: expect.stringContaining('EISDIR') as unknown,
    });
    expect(state.state_problem).toBeNull();
    const health = await httpRequest(`${r.http}/healthz`);
    expect(health.status).toBe(503);
    expect(health.json<{ displays: { output_problem: string }[] }>().displays[0]!.output_problem).toMatch(
      /^E_OUTPUT_WRITE: cannot write .*hallway\.png \(EISDIR\)$/,
    );
    const page = (await httpRequest(`${r.http}/`)).text();
    expect(page).toContain('Frame files');
    expect(page).toContain('E_OUTPUT_WRITE');
    await w.waitFor(() => {
      const d = w.latest('outfit-display/hallway/diagnostics');
      return (
        d !== undefined &&
        String((JSON.parse(d.payload.toString()) as { output_problem: unknown }).output_problem).startsWith(
          'E_OUTPUT_WRITE',
        )
      );
    }, 'diagnostics with the output problem');
    expect(linesWithCode(r.logText(), 'E_OUTPUT_WRITE').some((l) => l.level === 50)).toBe(true);

    // The folder gone, the next cycle writes the files and every publisher says all is well.
    await rm(png(r.dir), { recursive: true });
    r.clock.advance(10 * 60_000);
    await r.daemon.runOnce('hallway', 'schedule');
    expect((await stat(png(r.dir))).isFile()).toBe(true);
    expect(JSON.parse(await readFile(path.join(r.dir, 'frames', 'hallway.json'), 'utf8'))).toHaveProperty('outfit');
    expect(
      (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Record<string, unknown>>().output_problem,
    ).toBeNull();
    expect((await httpRequest(`${r.http}/healthz`)).status).toBe(200);
    await w.waitFor(() => {
      const d = w.latest('outfit-display/hallway/diagnostics');
      return (
        d !== undefined && (JSON.parse(d.payload.toString()) as { output_problem: unknown }).output_problem === null
      );
    }, 'diagnostics without the output problem');
    await w.close();
  });
});

describe('an output_dir removed while the daemon runs', () => {
  it('is made again by the next write (a refresh): the files are back, /healthz 200, the frame served', async () => {
    const r = await t.rig({ budget: 'refresh_reserve_credits: 3' });
    await r.daemon.start();
    const png = path.join(r.dir, 'frames', 'hallway.png');
    expect((await stat(png)).isFile()).toBe(true);
    await rm(path.join(r.dir, 'frames'), { recursive: true });

    r.clock.advance(60_000);
    expect(await r.daemon.refresh('hallway')).toMatchObject({ published: true });
    expect((await stat(png)).isFile()).toBe(true);
    expect(JSON.parse(await readFile(path.join(r.dir, 'frames', 'hallway.json'), 'utf8'))).toHaveProperty('outfit');
    expect(
      (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Record<string, unknown>>().output_problem,
    ).toBeNull();
    expect((await httpRequest(`${r.http}/healthz`)).status).toBe(200);
    expect((await httpRequest(`${r.http}/displays/hallway/frame.png`)).status).toBe(200);
    expect(linesWithCode(r.logText(), 'E_OUTPUT_WRITE')).toEqual([]);
  });
});

describe('a full output_dir (ENOSPC, injected)', () => {
  const dirs: string[] = [];
  const servers: HttpPublisher[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.stop()));
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  it('is E_OUTPUT_WRITE (ENOSPC) on state.json, /healthz and the diagnostics while the HTTP frame stays current; a write that succeeds clears it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'outfit-enospc-'));
    dirs.push(dir);
    const hallway = display('hallway', { panel: 'waveshare-4in2' });
    const clock = manualClock();
    const { logger, text } = capturingLogger();
    let full = true;
    const files = new FilePublisher({
      outputDir: path.join(dir, 'frames'),
      timezone: 'UTC',
      // A disk that is full while `full`: the open of the temp file fails as the kernel's would.
      write: (file, data) =>
        full
          ? Promise.reject(
              Object.assign(new Error(`ENOSPC: no space left on device, open '${file}'`), { code: 'ENOSPC' }),
            )
          : writeFileAtomic(file, data),
    });
    const displayBook = new DisplayBook({ clock });
    const views = new DisplayViews({ displayBook, displays: [hallway], clock });
    const http = new HttpPublisher({
      listen: '127.0.0.1:0',
      displays: [hallway],
      timezone: 'UTC',
      clock,
      views,
      logger,
    });
    servers.push(http);
    await files.start();
    await http.start();
    let n = 0;
    const cycle = new DisplayCycle({
      display: hallway,
      render: displayRenderOptions(hallway, { timezone: 'UTC' }),
      store: new LastGoodStore(path.join(dir, 'state')),
      fetch: () => Promise.resolve({ kind: 'fresh', rec: rec({ outfit: `Outfit number ${++n}.` }) }),
      publishers: [files, http],
      displayBook,
      views,
      clock,
      nextUpdateAt: () => null,
      logger,
      purchaseIntervalMs: 60_000,
    });
    await cycle.run('schedule');
    const url = http.url!;
    const state = (await httpRequest(`${url}/displays/hallway/state.json`)).json<Record<string, unknown>>();
    expect(state.outfit).toBe('Outfit number 1.');
    expect(state.output_problem).toMatchObject({
      code: 'E_OUTPUT_WRITE',
      file: path.join(dir, 'frames', 'hallway.png'),
      message: expect.stringContaining('(ENOSPC)') as unknown,
    });
    expect((await httpRequest(`${url}/displays/hallway/frame.png`)).status).toBe(200);
    const health = await httpRequest(`${url}/healthz`);
    expect(health.status).toBe(503);
    expect(health.text()).toContain('frame files cannot be written: E_OUTPUT_WRITE');
    const v = views.view('hallway')!;
    const diag = JSON.parse(diagnosticsPayload({ kind: 'ok' }, null, 'UTC', { outputProblem: v.outputProblem })) as {
      output_problem: string;
    };
    expect(diag.output_problem).toMatch(/^E_OUTPUT_WRITE: cannot write .*hallway\.png \(ENOSPC\)$/);
    const since = (state.output_problem as { since: string }).since;

    // Still full a cycle later: the HTTP frame is the new one, the problem keeps its first time.
    clock.advance(60_000);
    await cycle.run('schedule');
    const later = (await httpRequest(`${url}/displays/hallway/state.json`)).json<Record<string, unknown>>();
    expect(later.outfit).toBe('Outfit number 2.');
    expect((later.output_problem as { since: string }).since).toBe(since);

    full = false;
    clock.advance(60_000);
    await cycle.run('schedule');
    expect(JSON.parse(await readFile(path.join(dir, 'frames', 'hallway.json'), 'utf8'))).toMatchObject({
      outfit: 'Outfit number 3.',
    });
    expect(
      (await httpRequest(`${url}/displays/hallway/state.json`)).json<Record<string, unknown>>().output_problem,
    ).toBeNull();
    expect((await httpRequest(`${url}/healthz`)).status).toBe(200);
    expect(text()).toContain('frame files can be written again');
  });
});

describe('an output_dir that cannot be made at start', () => {
  it('does not stop the start: each publish says E_OUTPUT_WRITE naming the folder, and the files come once it can be made', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'outfit-outdir-'));
    try {
      // A real fault, whoever runs the test: a file where a folder of the path should be (ENOTDIR). The config check
      // refuses this at load; here it appears after the load, as a disk that went away or a folder owned by root would.
      await writeFile(path.join(dir, 'mnt'), 'not a folder\n');
      const outputDir = path.join(dir, 'mnt', 'frames');
      const files = new FilePublisher({ outputDir, timezone: 'UTC' });
      await files.start();
      const hallway = display('hallway', { panel: 'waveshare-4in2' });
      const side = testViews({ displays: [hallway] });
      const u = update(hallway, 1);
      await expect(files.publish(side.show(u))).rejects.toMatchObject({
        code: 'E_OUTPUT_WRITE',
        file: outputDir,
        message: expect.stringContaining('(ENOTDIR)') as unknown,
      });
      await rm(path.join(dir, 'mnt'));
      await files.publish(side.show(u));
      expect((await stat(path.join(outputDir, 'hallway.png'))).isFile()).toBe(true);
      // The folder removed while running: made again by the next write, with every file, changed or not.
      await rm(outputDir, { recursive: true });
      await files.publish(side.show(u));
      expect((await readdir(outputDir)).sort()).toEqual(['hallway.json', 'hallway.png']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a write whose rename the disk refused', () => {
  it('leaves its temp file while the disk refuses; the next write that succeeds removes it (and no other file)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'outfit-output-tmp-'));
    try {
      const outputDir = path.join(dir, 'frames');
      let readOnly = false;
      const files = new FilePublisher({
        outputDir,
        timezone: 'UTC',
        // As on a disk remounted read-only between the temp file's close and its rename: the temp file is written,
        // the rename and its removal are refused (EROFS).
        write: async (file, data) => {
          if (!readOnly) return writeFileAtomic(file, data);
          await writeFile(path.join(path.dirname(file), `.${path.basename(file)}.0123456789ab.tmp`), data);
          throw Object.assign(new Error(`EROFS: read-only file system, rename '${file}'`), { code: 'EROFS' });
        },
      });
      await files.start();
      const hallway = display('hallway', { panel: 'waveshare-4in2' });
      const side = testViews({ displays: [hallway] });
      await files.publish(side.show(update(hallway, 1)));
      await writeFile(path.join(outputDir, '.kitchen.png.fedcba987654.tmp'), 'another writer');
      readOnly = true;
      await expect(files.publish(side.show(update(hallway, 2)))).rejects.toMatchObject({ code: 'E_OUTPUT_WRITE' });
      expect((await readdir(outputDir)).filter((n) => n.startsWith('.hallway'))).toEqual([
        '.hallway.png.0123456789ab.tmp',
      ]);
      readOnly = false;
      await files.publish(side.show(update(hallway, 3)));
      expect((await readdir(outputDir)).sort()).toEqual([
        '.kitchen.png.fedcba987654.tmp',
        'hallway.json',
        'hallway.png',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('codes', () => {
  const doc = readFileSync(path.join(ROOT, 'docs/guides/troubleshooting.md'), 'utf8');
  it.each(codesIn('output'))('%s is documented in docs/guides/troubleshooting.md', (code) => {
    expect(doc).toMatch(new RegExp(`\\| \`${code}\` \\|`));
  });
});
