import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfig } from '../helpers/cli.js';
import { decodePng } from '../render/decode.js';

/** `render --now ISO --status KIND`: the frame the wall shows at that time, in that state. */

const REC = {
  outfit: 'A warm coat over a jumper, jeans and boots. Take gloves and a scarf.',
  reasoning: 'Cold and grey with a chance of rain later.',
  weather: {
    temp: 3.5,
    feels_like: 0.4,
    temp_unit: '°C',
    humidity_pct: 80,
    wind_speed: 14,
    wind_speed_unit: 'km/h',
    wind_dir: 'W',
    description: 'Overcast',
    rain_chance_pct: 40,
    uv_index: 1,
    is_day: true,
    alerts: [],
  },
  model: 'outfit-test',
  generated_at: '2026-11-28T06:59:00.000Z',
  fetched_at: '2026-11-28T07:00:00.000Z',
};

/** A config whose one display buys on the hour from 06:00 to 22:00, Berlin time; an http section for the status page. */
function config(extra = ''): string {
  return [
    'api:',
    '  base_url: simulated',
    'budget:',
    '  credits_per_day: 300',
    'timezone: Europe/Berlin',
    'displays:',
    '  - id: hallway',
    '    name: Hallway',
    '    lat: 52.52',
    '    lon: 13.405',
    '    panel: waveshare-7in5-v2',
    '    schedule: "0 6-22 * * *"',
    'output_dir: frames',
    'state_dir: state',
    extra,
    '',
  ].join('\n');
}

async function frame(args: string[], extra = ''): Promise<{ code: number | null; stderr: string; texts: string }> {
  const { dir, file } = await tempConfig(config(extra));
  const input = path.join(dir, 'rec.json');
  await writeFile(input, JSON.stringify(REC));
  const out = path.join(dir, 'frame.json');
  const res = await runCli(['render', '--config', file, '--input', input, '--out', out, ...args]);
  if (res.code !== 0) return { code: res.code, stderr: res.stderr, texts: '' };
  const json = JSON.parse(await readFile(out, 'utf8')) as { texts: string[] };
  return {
    code: res.code,
    stderr: res.stderr,
    texts: json.texts.join(' | ').replace(/\s+/g, ' ').replace(/ \| ·/g, ' ·'),
  };
}

describe('render --now and --status', () => {
  it('draws the answer current at its own time, and old once a slot passed without a new one', async () => {
    const fresh = await frame(['--now', '2026-11-28T07:05:00Z']);
    expect(fresh.code).toBe(0);
    expect(fresh.texts).toContain('Updated 08:00');
    expect(fresh.texts).not.toMatch(/\d (h|min|d) old|Out of date/);
    // 07:00 UTC is 08:00 in Berlin; the 09:00 slot brought nothing: at 12:00 Berlin the answer is 4 h old.
    const old = await frame(['--now', '2026-11-28T11:00:00Z']);
    expect(old.code).toBe(0);
    expect(old.texts).toMatch(/4 h old/);
  });

  it.each([
    // The wide frame shows an answer out of date by its age badge (the headline is being reworked: either passes).
    ['stale', /Out of date|no update since 08:00|4 h old/],
    ['service_error', /Outfit service error · trying again at 13:00/],
    ['unreachable', /No connection to the outfit service · trying again at 13:00/],
    ['key_rejected', /The service refused the API key · status page: http:\/\/192\.168\.1\.5:8321/],
    ['credits_out', /No credits left/],
    ['budget_exhausted', /Credit budget used up · until Sun 29 Nov 00:00/],
  ])('--status %s draws the band the daemon draws in that state', async (status, shown) => {
    const res = await frame(
      ['--now', '2026-11-28T11:30:00Z', '--status', status],
      'http:\n  listen: 0.0.0.0:8321\n  public_url: http://192.168.1.5:8321',
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.texts).toMatch(shown);
    // At 12:30 the answer of 08:00 is old whatever else is wrong: its age shows too.
    expect(res.texts).toMatch(/4 h old/);
  });

  it('draws an error state as pixels too: the PNG differs from the ok frame', async () => {
    const { dir, file } = await tempConfig(config());
    const input = path.join(dir, 'rec.json');
    await writeFile(input, JSON.stringify(REC));
    const png = async (status: string): Promise<Buffer> => {
      const out = path.join(dir, `${status}.png`);
      const res = await runCli([
        'render',
        '--config',
        file,
        '--input',
        input,
        '--out',
        out,
        '--now',
        '2026-11-28T07:05:00Z',
        '--status',
        status,
      ]);
      expect(res.code).toBe(0);
      return decodePng(await readFile(out)).data;
    };
    const ok = await png('ok');
    const failed = await png('service_error');
    expect(ok.length).toBe(failed.length);
    expect(ok.equals(failed)).toBe(false);
  });

  it('refuses a status or a time it does not know, naming the flag and what it takes (usage: exit 2)', async () => {
    const status = await frame(['--status', 'broken']);
    expect(status.code).toBe(2);
    expect(status.stderr).toContain(
      '--status must be one of ok, stale, service_error, unreachable, key_rejected, credits_out, budget_exhausted',
    );
    const now = await frame(['--now', 'yesterday']);
    expect(now.code).toBe(2);
    expect(now.stderr).toContain('--now must be an ISO 8601 time');
  });
});
