import { describe, expect, it } from 'vitest';
import { householdFigures, householdText } from './household-weeks.js';

/** The household bench's targets (docs/contributing/performance.md): at least 40 % fewer credits, and no more stale moments than today. */
describe('four weeks of a household', () => {
  it('buys at least 40 % fewer credits than the fixed schedule, with no more stale moments', async () => {
    const f = await householdFigures();
    console.log(`household bench:\n${householdText(f)}`);
    expect(f.today.schedule).toBe('*/30 6-22 * * *');
    expect(f.today.purchases).toBe(34 * 28);
    expect(f.reductionPct).toBeGreaterThanOrEqual(40);
    expect(f.household.staleLooks).toBeLessThanOrEqual(f.today.staleLooks);
    expect(f.household.looks).toBe(f.today.looks);
  }, 60_000);
});
