import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configYaml, HOUSEHOLD_PEOPLE_YAML } from '../helpers/config-yaml.js';
import { runCli, tempConfig } from '../helpers/cli.js';

/** The shipped CLI on a household: `plan` counts purchases, not people; `once` buys each person's answer. */

const PEOPLE = HOUSEHOLD_PEOPLE_YAML;

function household(creditsPerDay: number, schedule = '0 6-21 * * *'): string {
  return configYaml({
    creditsPerDay,
    displays: [
      { id: 'hallway', panel: 'waveshare-4in2', schedule, more: ['people: [anna, ben]'] },
      { id: 'kitchen', panel: 'waveshare-4in2', schedule, more: ['people: [anna]'] },
    ],
    sections: PEOPLE,
  });
}

describe('the CLI on a household', () => {
  it('plan prints the household’s cost a day and a month, and exits 1 only when its purchases are over budget', async () => {
    // 16 slots a day, Anna's and Ben's requests (the kitchen shares Anna's), 3 credits each: 96 a day.
    const fits = await tempConfig(household(300));
    const ok = await runCli(['plan', '--config', fits.file]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('  hallway: anna, ben: 2 purchases a slot (2 distinct requests)');
    expect(ok.stdout).toContain('  kitchen: anna: 0 purchases a slot (1 distinct request, 1 shared with hallway)');
    expect(ok.stdout).toMatch(
      /the household: 96 credits\/day typ, 96 max \(\d{4}-\d\d-\d\d\); 29\d\d credits\/month max/,
    );
    // 96 a day against 80 (less the default refresh reserve): over, though one purchase a slot would fit.
    const over = await tempConfig(household(80));
    const no = await runCli(['plan', '--config', over.file]);
    expect(no.code).toBe(1);
    expect(no.stdout).toContain('OVER BUDGET');
    expect(no.stdout).toContain('W_OVER_BUDGET');
  });

  it('once buys each person’s answer, one purchase per distinct request, and keeps them in state_dir', async () => {
    const { dir, file } = await tempConfig(household(300));
    const res = await runCli(['once', '--config', file], { cwd: dir, timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const saved = async (display: string, person: string): Promise<{ outfit: string; fetched_at: string }> =>
      JSON.parse(await readFile(path.join(dir, 'state', 'people', display, `${person}.json`), 'utf8')) as {
        outfit: string;
        fetched_at: string;
      };
    const hallAnna = await saved('hallway', 'anna');
    const kitchenAnna = await saved('kitchen', 'anna');
    // The kitchen was handed the hallway's purchase of Anna's request: the same answer, bought at the same moment.
    expect(kitchenAnna).toEqual(hallAnna);
    expect(typeof (await saved('hallway', 'ben')).outfit).toBe('string');
    const frame = JSON.parse(await readFile(path.join(dir, 'frames', 'hallway.json'), 'utf8')) as { outfit: string };
    expect(frame.outfit).toBe(hallAnna.outfit);
    // Two purchases of /recweather (3 credits each): Anna's on the kitchen spent nothing.
    const ledger = JSON.parse(await readFile(path.join(dir, 'state', 'budget-ledger.json'), 'utf8')) as {
      day_charged: number;
      recent_sends: number[];
    };
    expect(ledger.day_charged).toBe(6);
    expect(ledger.recent_sends).toHaveLength(2);
  });
});
