import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPanel } from '../../src/panels/panels.js';
import { drawInProcess, type DisplayRenderOptions, type FrameState } from '../../src/render/display-frame.js';
import { RenderProcess, workerNodeFlags, type RenderProcessOptions } from '../../src/render/render-process.js';
import { systemClock } from '../../src/time/clock.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { CLI } from '../helpers/cli.js';
import { until } from '../helpers/until.js';

/**
 * The daemon's frames drawn in a child (render-process.ts): the real `dist/cli.js render-worker` over a real IPC
 * channel. Faults are real too: a child killed mid-frame, a program that exits at once, one that never answers.
 */

const OPTIONS: DisplayRenderOptions = {
  panel: loadPanel('waveshare-7in5-v2'),
  displayName: 'Hallway',
  timezone: 'Europe/Berlin',
  rotation: 0,
  dither: undefined,
  locale: undefined,
};

const STATE: FrameState = {
  rec: {
    outfit: 'A warm coat, a scarf and gloves over a thick sweater; boots for the wet pavements.',
    reasoning: 'Cold and damp all day.',
    model: 'outfit-model-1',
    weather: {
      temp: 3,
      feels_like: -1,
      temp_unit: '°C',
      humidity_pct: 90,
      wind_speed: 14,
      wind_speed_unit: 'km/h',
      wind_dir: 'NW',
      description: 'Drizzle',
      rain_chance_pct: 70,
      uv_index: 0,
      is_day: true,
      alerts: ['Ice on the roads'],
    },
    generated_at: '2026-11-27T07:00:00.000Z',
    fetched_at: '2026-11-27T07:00:01.000Z',
  },
  status: { kind: 'stale', since: new Date('2026-11-27T07:00:01.000Z') },
  stale: true,
  now: new Date('2026-11-27T13:00:00.000Z'),
};

/** The worker as `run` starts it, less this test process's own node flags (vitest's). */
const WORKER = { file: process.execPath, args: [CLI, 'render-worker'] };

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const open: RenderProcess[] = [];
/** Children a test froze: killed after it whatever happened, so that a failing test leaves none behind. */
const frozen: number[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
  for (const pid of frozen.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

/** Stops a child as a frozen one would be (it keeps its memory and answers nothing, not even its channel's close). */
function freeze(pid: number): number {
  frozen.push(pid);
  process.kill(pid, 'SIGSTOP');
  return pid;
}

async function renderProcess(
  o: Partial<RenderProcessOptions> = {},
): Promise<{ rp: RenderProcess; tmp: string; log: ReturnType<typeof capturingLogger> }> {
  const tmp = await mkdtemp(path.join(tmpdir(), 'outfit-render-process-'));
  const log = capturingLogger();
  const rp = new RenderProcess({
    clock: systemClock,
    env: { PATH: process.env.PATH, TMPDIR: tmp },
    logger: log.logger,
    command: WORKER,
    ...o,
  });
  open.push(rp);
  return { rp, tmp, log };
}

describe('RenderProcess', () => {
  it('draws the frame this process draws, keeps one child for a round, and ends it when idle, its glyphs saved', async () => {
    // This process's frames first: drawing them cold here can outlast the child's 300 ms idle time.
    const here = await drawInProcess(OPTIONS, STATE);
    const hereTrmnl = await drawInProcess(OPTIONS, STATE, { panel: loadPanel('trmnl'), rotation: 0 });
    const { rp, tmp } = await renderProcess({ idleMs: 300 });
    const frame = await rp.draw(OPTIONS, STATE);
    const pid = rp.pid!;
    expect(alive(pid)).toBe(true);
    // The TRMNL image of the round: the same child, for another panel.
    const trmnl = await rp.draw(OPTIONS, STATE, { panel: loadPanel('trmnl'), rotation: 0 });
    expect(frame.hash).toBe(here.hash);
    expect(Buffer.isBuffer(frame.png) && Buffer.isBuffer(frame.raw) && Buffer.isBuffer(frame.bmp)).toBe(true);
    expect(frame.png.equals(here.png) && frame.raw.equals(here.raw) && frame.bmp!.equals(here.bmp!)).toBe(true);
    expect([frame.width, frame.height]).toEqual([800, 480]);
    expect(trmnl.hash).toBe(hereTrmnl.hash);
    expect(rp.starts).toBe(1);
    // Idle: told to go; it saves the glyphs it drew for the next child, then exits.
    await until('the idle child to exit', () => rp.pid === null && !alive(pid));
    expect(existsSync(path.join(tmp, `outfit-display-glyphs-${process.getuid?.() ?? 0}`, 'glyphs.bin'))).toBe(true);
    // The next frame starts another.
    expect((await rp.draw(OPTIONS, STATE)).hash).toBe(here.hash);
    expect(rp.starts).toBe(2);
  });

  it('draws the frames asked at once, each its own, in one child', async () => {
    const { rp } = await renderProcess();
    const states = [0, 1, 2].map((i) => ({
      ...STATE,
      rec: { ...STATE.rec!, weather: { ...STATE.rec!.weather, temp: i * 10 } },
    }));
    const frames = await Promise.all(states.map((s) => rp.draw(OPTIONS, s)));
    for (const [i, f] of frames.entries()) expect(f.hash).toBe((await drawInProcess(OPTIONS, states[i]!)).hash);
    expect(new Set(frames.map((f) => f.hash)).size).toBe(3);
    expect(rp.starts).toBe(1);
  });

  it('gives a frame that cannot be drawn E_RENDER_FAILED, and the child draws the next', async () => {
    const { rp } = await renderProcess();
    const broken = { ...OPTIONS, panel: { ...OPTIONS.panel, palette: [] } };
    await expect(rp.draw(broken, STATE)).rejects.toMatchObject({ code: 'E_RENDER_FAILED' });
    expect((await rp.draw(OPTIONS, STATE)).width).toBe(800);
    expect(rp.starts).toBe(1);
  });

  it('sends the frames of a child killed while drawing to a new one (W_RENDER_RESTART)', async () => {
    const { rp, log } = await renderProcess();
    const drawn = rp.draw(OPTIONS, STATE);
    const first = rp.pid!;
    process.kill(first, 'SIGKILL');
    expect((await drawn).hash).toBe((await drawInProcess(OPTIONS, STATE)).hash);
    expect(rp.starts).toBe(2);
    expect(rp.pid).not.toBe(first);
    const lines = log
      .text()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((e) => e.code === 'W_RENDER_RESTART')).toMatchObject([
      { pid: first, why: 'was ended by SIGKILL', frames: 1 },
    ]);
  });

  it('fails with E_RENDER_PROCESS when the child dies twice, or cannot start', async () => {
    const { rp } = await renderProcess({ command: { file: process.execPath, args: ['-e', 'process.exit(3)'] } });
    await expect(rp.draw(OPTIONS, STATE)).rejects.toMatchObject({
      code: 'E_RENDER_PROCESS',
      message: expect.stringContaining('exited with code 3'),
    });
    expect(rp.starts).toBe(2);
    const { rp: missing } = await renderProcess({ command: { file: '/nonexistent/node', args: [] } });
    await expect(missing.draw(OPTIONS, STATE)).rejects.toMatchObject({
      code: 'E_RENDER_PROCESS',
      message: expect.stringContaining('ENOENT'),
    });
  });

  it('kills a child that gives no answer (E_RENDER_TIMEOUT), and starts a new one for the next frame', async () => {
    const { rp } = await renderProcess({
      answerTimeoutMs: 500,
      command: { file: process.execPath, args: ['-e', 'process.on("message", () => {})'] },
    });
    const drawn = rp.draw(OPTIONS, STATE);
    const pid = rp.pid!;
    await expect(drawn).rejects.toMatchObject({ code: 'E_RENDER_TIMEOUT' });
    await until('the silent child to be killed', () => !alive(pid));
    await expect(rp.draw(OPTIONS, STATE)).rejects.toMatchObject({ code: 'E_RENDER_TIMEOUT' });
    expect(rp.starts).toBe(2);
  });

  it('close() fails a frame still asked, ends the child, and refuses frames after it', async () => {
    const { rp } = await renderProcess();
    await rp.draw(OPTIONS, STATE);
    const pid = rp.pid!;
    const failed = expect(rp.draw(OPTIONS, STATE)).rejects.toMatchObject({ code: 'E_RENDER_PROCESS' });
    await rp.close();
    await failed;
    expect(alive(pid)).toBe(false);
    await expect(rp.draw(OPTIONS, STATE)).rejects.toMatchObject({ code: 'E_RENDER_PROCESS' });
  });

  it('runs the child with the environment it is given, and nothing of the daemon’s beyond it', async () => {
    const { rp } = await renderProcess();
    await rp.draw(OPTIONS, STATE);
    const env = readFileSync(`/proc/${rp.pid}/environ`, 'utf8').split('\0').filter(Boolean);
    // Node adds its IPC channel's own two.
    expect(env.map((e) => e.split('=')[0]).sort()).toEqual([
      'NODE_CHANNEL_FD',
      'NODE_CHANNEL_SERIALIZATION_MODE',
      'PATH',
      'TMPDIR',
    ]);
  });
});

describe('a frozen render process', () => {
  it('frozen while idle: killed when it does not go (W_RENDER_KILLED), and gone before the next child starts', async () => {
    const { rp, log } = await renderProcess({ idleMs: 200, closeWaitMs: 300 });
    await rp.draw(OPTIONS, STATE);
    const pid = freeze(rp.pid!);
    await until('the frozen child to be told to go', () => rp.pid === null, { everyMs: 10 });
    const drawn = rp.draw(OPTIONS, STATE);
    // Checked from the moment the frame is asked: whenever a new child runs, the frozen one is gone (ESRCH).
    const seen = await until('a new child', () => rp.pid !== null && { pid: rp.pid, frozenAlive: alive(pid) }, {
      everyMs: 5,
    });
    expect(seen.frozenAlive).toBe(false);
    expect(seen.pid).not.toBe(pid);
    expect((await drawn).width).toBe(800);
    expect(rp.starts).toBe(2);
    const lines = log
      .text()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((e) => e.code === 'W_RENDER_KILLED')).toMatchObject([{ pid }]);
  });

  it('frozen while drawing: killed (E_RENDER_TIMEOUT), and gone before the next child starts', async () => {
    const { rp } = await renderProcess({ answerTimeoutMs: 1_000 });
    const drawn = rp.draw(OPTIONS, STATE);
    const pid = freeze(rp.pid!);
    await expect(drawn).rejects.toMatchObject({ code: 'E_RENDER_TIMEOUT' });
    const next = rp.draw(OPTIONS, STATE);
    const seen = await until('a new child', () => rp.pid !== null && { pid: rp.pid, frozenAlive: alive(pid) }, {
      everyMs: 5,
    });
    expect(seen.frozenAlive).toBe(false);
    expect((await next).width).toBe(800);
    expect(rp.starts).toBe(2);
  });

  it('close() ends a child frozen on its way out: none is left after the stop', async () => {
    const { rp } = await renderProcess({ idleMs: 200, closeWaitMs: 300 });
    await rp.draw(OPTIONS, STATE);
    const pid = freeze(rp.pid!);
    await until('the frozen child to be told to go', () => rp.pid === null, { everyMs: 10 });
    await rp.close();
    expect(alive(pid)).toBe(false);
  });

  it('close() ends the child that runs when it is frozen', async () => {
    const { rp } = await renderProcess({ closeWaitMs: 300 });
    await rp.draw(OPTIONS, STATE);
    const pid = freeze(rp.pid!);
    await rp.close();
    expect(alive(pid)).toBe(false);
  });
});

describe('workerNodeFlags', () => {
  it('keeps the daemon’s heap caps and preloads; drops the compilers-off and inspector flags', () => {
    const daemon = [
      '--max-old-space-size=96',
      '--no-maglev',
      '--no-opt',
      '--no-sparkplug',
      '--import',
      'file:///x.js',
      '--inspect',
      '--inspect-brk=0.0.0.0:9229',
      '--inspect-port=9230',
      '--inspect-wait',
      '--optimize-for-size',
    ];
    expect(workerNodeFlags(daemon)).toEqual([
      '--max-old-space-size=96',
      '--import',
      'file:///x.js',
      '--optimize-for-size',
    ]);
  });
});

describe('RenderProcess, a state that cannot be sent', () => {
  it('fails that frame with E_RENDER_FAILED at once; the child draws the next', async () => {
    const tmp = await mkdtemp(path.join(tmpdir(), 'outfit-render-process-'));
    const rp = new RenderProcess({
      clock: systemClock,
      env: { PATH: process.env.PATH, TMPDIR: tmp },
      command: WORKER,
      idleMs: 300,
    });
    open.push(rp);
    const unsendable = { ...STATE, garments: [() => 'a function'] } as unknown as FrameState;
    await expect(rp.draw(OPTIONS, unsendable)).rejects.toMatchObject({
      code: 'E_RENDER_FAILED',
      message: expect.stringContaining('cannot be sent'),
    });
    // The child started for it is not left behind: it goes when idle, like any other.
    const pid = rp.pid!;
    await until('the child started for nothing to end', () => rp.pid === null && !alive(pid));
    expect((await rp.draw(OPTIONS, STATE)).width).toBe(800);
    expect(rp.starts).toBe(2);
  });
});
