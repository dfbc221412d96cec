import { describe, expect, it } from 'vitest';
import { Scheduler } from '../../src/budget/scheduler.js';
import { HouseholdGate, DEPARTURE_LEAD_MS, AWAY_SLEEP_MS } from '../../src/household/household-gate.js';
import { PresenceBook } from '../../src/household/presence-book.js';
import { CronTimes } from '../../src/budget/cron-times.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { berlin, makeConfig, turn } from '../budget/helpers.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

const PEOPLE = [
  { id: 'anna', name: 'Anna', gender: 'female', presence_topic: 'ha/person/anna/state', leaves: ['1-5 07:40'] },
  { id: 'ben', name: 'Ben', gender: 'male', presence_topic: 'ha/person/ben/state' },
];

/**
 * The real Scheduler held by the real gate, as the daemon wires them (daemon.ts): a stub cycle counts purchases and
 * an arrival buys through the same stub.
 */
function rig(opts: { schedule: string; runs?: string; displays?: Array<Record<string, unknown>>; start: number }) {
  const clock = new FakeClock(opts.start);
  const { logger, text } = capturingLogger();
  const config = makeConfig({
    people: PEOPLE,
    quiet_hours: '22:30-06:30',
    displays: opts.displays ?? [{ id: 'hall', lat: 50, lon: 10, schedule: opts.schedule, people: ['anna', 'ben'] }],
  });
  const presence = new PresenceBook({ personIds: PEOPLE.map((p) => p.id), clock });
  const gate = new HouseholdGate({ config, presence });
  const bought: Array<{ id: string; at: number; why: string }> = [];
  // A frame bought just before the start: no catch-up purchase at start.
  const lastAnswer = new Map<string, number>(config.displays.map((d) => [d.id, opts.start]));
  const buy = (id: string, why: string): void => {
    bought.push({ id, at: clock.now(), why });
    lastAnswer.set(id, clock.now());
  };
  const schedules = new Map(config.displays.map((d) => [d.id, opts.runs ?? d.schedule]));
  const scheduler = new Scheduler({
    config,
    clock,
    logger,
    schedules,
    onTick: (id) => {
      buy(id, 'tick');
      return Promise.resolve();
    },
    lastAnswerAt: (id) => lastAnswer.get(id) ?? null,
    hold: (id, at) => gate.hold(id, at),
    extraTimes: (id) => gate.departureTimes(id),
  });
  presence.onChange((change) => {
    const period = (id: string): number => new CronTimes(schedules.get(id) ?? '', config.timezone).minGapMs();
    const ctx = {
      periodMs: period,
      lastAnswerAt: (d: string) => lastAnswer.get(d) ?? null,
      nextRunAt: (d: string) => scheduler.nextRun(d)?.getTime() ?? null,
    };
    for (const id of gate.arrivalPurchases(change, clock.now(), ctx)) buy(id, 'arrival');
  });
  const advance = async (ms: number): Promise<void> => {
    const end = clock.monotonic() + ms;
    for (;;) {
      await turn();
      const next = clock.msToNextTimer();
      if (next === null || clock.monotonic() + next > end) break;
      clock.runNext();
    }
    clock.advance(end - clock.monotonic());
    await turn();
  };
  const heldLines = (): Array<Record<string, unknown>> =>
    text()
      .split('\n')
      .filter((l) => l.includes('W_PURCHASE_HELD'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { clock, scheduler, presence, gate, bought, advance, heldLines };
}

describe('purchases held by quiet hours and presence', () => {
  it('buys nothing in quiet hours, says so once a night, and names their end as the next update', async () => {
    // Monday 2027-01-11, 21:00 Berlin.
    const r = rig({ schedule: '*/30 * * * *', start: berlin('2027-01-11T21:00:00') });
    r.scheduler.start();
    await r.advance(2 * HOUR);
    expect(r.bought.map((b) => new Date(b.at).toISOString())).toEqual([
      new Date(berlin('2027-01-11T21:30:00')).toISOString(),
      new Date(berlin('2027-01-11T22:00:00')).toISOString(),
    ]);
    expect(r.scheduler.nextRun('hall')).toEqual(new Date(berlin('2027-01-12T06:30:00')));
    // The frame of 22:00 stays current through the night: stale only after the first slot past the quiet hours.
    expect(r.scheduler.staleFrom('hall', berlin('2027-01-11T22:00:00'))!.getTime()).toBeGreaterThan(
      berlin('2027-01-12T06:30:00'),
    );
    await r.advance(8 * HOUR);
    expect(r.bought.filter((b) => b.at > berlin('2027-01-11T22:00:00')).map((b) => b.at)).toEqual([
      berlin('2027-01-12T06:30:00'),
      berlin('2027-01-12T07:00:00'),
    ]);
    const held = r.heldLines();
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({
      reason: 'quiet_hours',
      until: new Date(berlin('2027-01-12T06:30:00')).toISOString(),
    });
    await r.scheduler.stop();
  });

  it('buys nothing while everyone is away and buys at once on the first arrival after a long absence', async () => {
    const r = rig({ schedule: '*/30 * * * *', start: berlin('2027-01-11T07:50:00') });
    r.scheduler.start();
    r.presence.record('anna', 'not_home');
    r.presence.record('ben', 'Work');
    await r.advance(9 * HOUR + 30 * MIN);
    expect(r.bought).toEqual([]);
    expect(r.heldLines()).toEqual([expect.objectContaining({ reason: 'away', display: 'hall' })]);
    // Devices sleep longer meanwhile: at least an hour, not the half-hour schedule.
    const now = r.clock.now();
    expect(r.gate.sleepUntil('hall', r.scheduler.nextRun('hall'), now)!.getTime()).toBe(now + AWAY_SLEEP_MS);
    // 17:20: Ben comes home after 9.5 hours: one purchase at once, then the schedule again.
    r.presence.record('ben', 'home');
    expect(r.bought).toEqual([{ id: 'hall', at: berlin('2027-01-11T17:20:00'), why: 'arrival' }]);
    r.presence.record('anna', 'home');
    expect(r.bought).toHaveLength(1);
    await r.advance(15 * MIN);
    expect(r.bought.map((b) => b.why)).toEqual(['arrival', 'tick']);
    // Away again; an arrival a minute before a slot leaves the purchase to the slot.
    r.presence.record('anna', 'not_home');
    r.presence.record('ben', 'not_home');
    await r.advance(2 * HOUR + 24 * MIN);
    r.presence.record('ben', 'home');
    expect(r.bought).toHaveLength(2);
    await r.advance(MIN);
    expect(r.bought.slice(2)).toEqual([{ id: 'hall', at: berlin('2027-01-11T20:00:00'), why: 'tick' }]);
    await r.scheduler.stop();
  });

  it('does not buy at an arrival after an absence shorter than the period, nor in quiet hours', async () => {
    const r = rig({ schedule: '0 */2 * * *', start: berlin('2027-01-11T10:05:00') });
    r.scheduler.start();
    r.presence.record('anna', 'not_home');
    r.presence.record('ben', 'not_home');
    await r.advance(HOUR);
    r.presence.record('ben', 'home');
    expect(r.bought).toEqual([]);
    r.presence.record('ben', 'not_home');
    await r.advance(13 * HOUR);
    // 00:05: a late arrival after 13 hours, in the quiet hours: the morning's first slot buys.
    r.presence.record('anna', 'home');
    expect(r.bought).toEqual([]);
    await r.advance(8 * HOUR);
    expect(r.bought.map((b) => b.at)).toEqual([berlin('2027-01-12T08:00:00')]);
    await r.scheduler.stop();
  });

  it('a display without people is held by quiet hours only', async () => {
    const r = rig({
      schedule: '0 * * * *',
      start: berlin('2027-01-11T09:30:00'),
      displays: [{ id: 'kitchen', lat: 50, lon: 10, schedule: '0 * * * *' }],
    });
    r.scheduler.start();
    r.presence.record('anna', 'not_home');
    r.presence.record('ben', 'not_home');
    await r.advance(2 * HOUR);
    expect(r.bought).toHaveLength(2);
    expect(r.heldLines()).toEqual([]);
    await r.scheduler.stop();
  });

  it('an auto display buys shortly before its people leave, when they are home', async () => {
    // Resolved auto schedule every three hours; Anna leaves at 07:40 on work days.
    const r = rig({ schedule: 'auto', runs: '0 */3 * * *', start: berlin('2027-01-15T06:40:00') });
    r.scheduler.start();
    expect(r.scheduler.nextRun('hall')).toEqual(new Date(berlin('2027-01-15T07:40:00') - DEPARTURE_LEAD_MS));
    await r.advance(HOUR);
    expect(r.bought.map((b) => b.at)).toEqual([berlin('2027-01-15T07:25:00')]);
    // Saturday: no departure, the schedule alone (and nothing in the quiet hours).
    await r.advance(23 * HOUR);
    expect(r.bought.map((b) => b.at).slice(1)).toEqual(
      ['09', '12', '15', '18', '21'].map((h) => berlin(`2027-01-15T${h}:00:00`)),
    );
    expect(r.scheduler.nextRun('hall')).toEqual(new Date(berlin('2027-01-16T09:00:00')));
    // Away at the departure time: held like any purchase.
    r.presence.record('anna', 'not_home');
    r.presence.record('ben', 'not_home');
    await r.advance(3 * 24 * HOUR);
    expect(r.bought.filter((b) => b.at > berlin('2027-01-16T00:00:00'))).toEqual([]);
    await r.scheduler.stop();
  });

  it('buys before a departure only of someone at home: Anna away, Ben home, no 07:25 purchase', async () => {
    const r = rig({ schedule: 'auto', runs: '0 */3 * * *', start: berlin('2027-01-15T06:40:00') });
    r.presence.record('anna', 'not_home');
    r.presence.record('ben', 'home');
    r.scheduler.start();
    expect(r.scheduler.nextRun('hall')).toEqual(new Date(berlin('2027-01-15T09:00:00')));
    await r.advance(3 * HOUR);
    expect(r.bought.map((b) => b.at)).toEqual([berlin('2027-01-15T09:00:00')]);
    await r.scheduler.stop();
  });
});
