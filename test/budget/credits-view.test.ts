import { describe, expect, it } from 'vitest';
import { creditsLines, creditsView } from '../../src/state/credits-view.js';
import { diagnosticsPayload } from '../../src/state/state-payload.js';
import { statusWords } from '../../src/http/health.js';
import { frameContent } from '../../src/render/layout/content.js';
import { BERLIN, berlin } from './helpers.js';
import { one, rig, START } from './governor-rig.js';
import { CreditsExhaustedError, ServiceError } from '../../src/api/errors.js';

const NOW = new Date(START);

describe('The honest ledger, as the owner sees it', () => {
  it('the diagnostics and state.json tell charged, unknown and an empty account apart', async () => {
    const r = await rig({}, [new ServiceError('500', { status: 500 })]);
    expect((await one(r)).kind).toBe('failed');
    r.clock.advance(3_600_000);
    expect((await one(r)).kind).toBe('fresh');
    r.clock.advance(3_600_000);
    r.fake.script.push(new CreditsExhaustedError('402 insufficient credits', { status: 402 }));
    expect(await one(r)).toMatchObject({ kind: 'budget_exhausted', scope: 'credits' });
    const view = creditsView(r.governor.status(), BERLIN);
    expect(view).toMatchObject({
      credits_counted_today: 6,
      credits_charged_today: 3,
      credits_unknown_today: 3,
      requests_refused_today: 1,
      account: 'out_of_credits',
      account_out_since: '2027-01-11T12:00:00.000+01:00',
      account_next_try_at: '2027-01-11T13:00:00.000+01:00',
    });
    const diag = JSON.parse(diagnosticsPayload({ kind: 'ok' }, r.governor.status(), BERLIN)) as Record<string, unknown>;
    expect(diag).toMatchObject({ account: 'out_of_credits', credits_unknown_today: 3, credits_charged_today: 3 });
    const lines = creditsLines(r.governor.status(), (d) => d.toISOString());
    expect(lines.bad.join(' ')).toMatch(/out of credits.*web dashboard/);
    expect(lines.ok.join(' ')).toMatch(/3 credits charged, 3 counted whose charge is unknown/);
  });

  it('the frame says the account is out of credits and where to top it up, not "budget used up"', () => {
    const until = new Date(berlin('2027-01-11T11:00:00'));
    const out = frameContent({
      rec: null,
      displayName: 'Hall',
      timezone: BERLIN,
      status: { kind: 'credits_out', since: NOW, until },
      now: NOW,
    });
    expect(out.status).toMatchObject({ kind: 'credits_out', title: 'No credits left' });
    expect(out.status?.detail).toMatch(/top up in the service's web dashboard · trying again at 11:00/);
    const own = frameContent({
      rec: null,
      displayName: 'Hall',
      timezone: BERLIN,
      status: { kind: 'budget_exhausted', until, unknownCredits: 9 },
      now: NOW,
    });
    expect(own.status).toMatchObject({ title: 'Credit budget used up' });
    expect(own.status?.detail).toMatch(/9 of them unconfirmed/);
    expect(statusWords({ kind: 'credits_out', since: NOW, until })).toMatch(/account is out of credits/);
  });
});
