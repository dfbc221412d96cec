import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dayReport, formatDayReport } from '../../display/firmware/day-report.js';
import { TRMNL_POWER } from '../../display/firmware/power.js';
import { simModel, simModelNames } from '../../display/firmware/sim-models.js';
import { runSimulateCommand, simulatorOptions } from '../../display/firmware/simulate-command.js';
import type { SimSummary } from '../../display/firmware/sim-output.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { parsedSimulatedConfig } from '../helpers/parsed-simulated-config.js';
import { loadPanel } from '../../src/panels/panels.js';

/** A day of the default schedule: 17 hours of two updates, 34 new frames a day. */
const SCHEDULE = '*/30 6-22 * * *';
const FROM = Date.parse('2026-03-10T12:00:00Z');

describe('the day report', () => {
  it('our refresh_rate wakes once a new frame; the stock 15 minutes wake over 2.5 times as often and last under 1/1.3 as many days', () => {
    const r = dayReport({
      schedule: SCHEDULE,
      timezone: 'Europe/Berlin',
      panel: loadPanel('trmnl'),
      power: TRMNL_POWER,
      from: FROM,
    });
    expect(r.date).toBe('2026-03-11');
    const [ours, stock] = r.rows;
    expect(ours).toMatchObject({ policy: 'refresh_rate', wakes: 34, new_frames: 34, wakes_per_new_frame: 1 });
    expect(stock.policy).toBe('stock_15min');
    expect(stock.new_frames).toBe(34);
    // 900 s asleep after each wake of a few seconds: a little under 96 a day.
    expect(stock.wakes).toBeGreaterThan(90);
    expect(stock.wakes).toBeLessThanOrEqual(96);
    expect(stock.wakes_per_new_frame).toBeGreaterThan(2.5);
    expect(ours.days_per_charge).toBeGreaterThan(stock.days_per_charge * 1.3);
    expect(formatDayReport(r, 'og')).toMatch(/our refresh_rate\s+34\s+34\s+1\.00/);
  });

  it('each model has its own day: the X and the Kindle on their own batteries and panels', () => {
    const days = (['og', 'og_plus', 'x', 'kindle'] as const).map((n) => {
      const m = simModel(n)!;
      return dayReport({
        schedule: SCHEDULE,
        timezone: 'Europe/Berlin',
        panel: loadPanel(m.model.panel),
        power: m.power,
        from: FROM,
      });
    });
    for (const d of days) expect(d.rows[0]).toMatchObject({ wakes: 34, wakes_per_new_frame: 1 });
    const [og, plus, x, kindle] = days.map((d) => d.rows[0].days_per_charge);
    // 4 greys refresh fully every time (3.5 s rather than partial 0.6 s): a little shorter.
    expect(plus).toBeLessThan(og!);
    expect(x).not.toBe(og);
    // A Kindle's suspend draws far more than an ESP32's deep sleep.
    expect(kindle).toBeLessThan(og! / 3);
  });
});

describe('simulate --day', () => {
  let out: string | null = null;
  afterEach(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  });

  const loaded: LoadedConfig = {
    config: parsedSimulatedConfig({
      displays: [{ id: 'hallway', lat: 52.5, lon: 13.4, panel: 'trmnl' }],
      http: { listen: '127.0.0.1:9' },
    }),
    secrets: { apiKey: null, apiKeySource: null, mqttPassword: null, trmnlTokens: new Map() },
    file: '/tmp/config.yaml',
    warnings: [],
  };

  it('--day --wakes 0 prints the table and writes it to summary.json, without a daemon', async () => {
    out = await mkdtemp(path.join(tmpdir(), 'outfit-sim-day-'));
    const lines: string[] = [];
    const code = await runSimulateCommand(
      loaded,
      { display: 'hallway', model: 'x', day: true, wakes: '0', out },
      { log: (l) => lines.push(l), error: (l) => lines.push(l), signal: new AbortController().signal },
    );
    expect(code).toBe(0);
    // The display's schedule is `auto`: the report takes the default.
    expect(lines.join('\n')).toContain(`"${SCHEDULE}"`);
    expect(lines.join('\n')).toMatch(/stock, every 15 min/);
    const summary = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')) as SimSummary;
    expect(summary).toMatchObject({
      model: 'x',
      panel: 'trmnl-x',
      wakes: 0,
      day: { schedule: SCHEDULE, panel: 'trmnl-x', capacity_mah: 5000 },
    });
    expect(summary.day!.rows.map((r) => r.policy)).toEqual(['refresh_rate', 'stock_15min']);
  });

  it.each([
    [{ model: 'kobo' }, /--model must be one of og, og_plus, x, reterminal_e1001, xiao, kindle/],
    [{ model: 'kindle', via: 'trmnl' }, /--model kindle speaks --via http/],
    [{ model: 'og', sensors: 'pressure=1013' }, /--sensors takes temperature=N,humidity=N,co2=N/],
    [{ model: 'kindle', sensors: 'co2=600' }, /--model kindle has no environment sensor/],
    [{ battery: '150', model: 'kindle' }, /--battery must be a percent/],
    [{ button: '0' }, /--button must be a whole number of at least 1/],
    [{ day: true, schedule: 'every morning', wakes: '0' }, /the day report: not a valid cron expression/],
  ])('%o is bad usage (exit 2)', async (flags, message) => {
    const errors: string[] = [];
    const code = await runSimulateCommand(
      loaded,
      { display: 'hallway', wakes: '1', out: '/tmp/never-written', ...flags },
      { log: () => undefined, error: (l) => errors.push(l), signal: new AbortController().signal },
    );
    expect(code).toBe(2);
    expect(errors.join('\n')).toMatch(message);
  });

  it("every --model resolves to the daemon's panel for its Model header", () => {
    expect(simModelNames().map((n) => [n, simModel(n)?.header, simModel(n)?.model.panel])).toEqual([
      ['og', 'og', 'trmnl'],
      ['og_plus', 'og_plus', 'trmnl-4grey'],
      ['x', 'x', 'trmnl-x'],
      ['reterminal_e1001', 'reterminal_e1001', 'trmnl-4grey'],
      ['xiao', 'xiao_epaper_display', 'trmnl'],
      ['kindle', null, 'kindle-paperwhite'],
    ]);
  });

  it('flags become options: the model picks its transport, --button lists presses', () => {
    const o = simulatorOptions(
      loaded,
      { display: 'hallway', model: 'kindle', battery: '57', button: '2,5', sensors: undefined },
      '/work',
    );
    expect(o).toMatchObject({
      via: 'http',
      batteryPct: 57,
      buttonWakes: [2, 5],
      model: { name: 'kindle', header: null, via: 'http' },
    });
  });
});
