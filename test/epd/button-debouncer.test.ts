import { describe, expect, it } from 'vitest';
import { ButtonDebouncer } from '../../src/epd/button-debouncer.js';
import { FakeClock } from '../helpers/fake-clock.js';

/**
 * A button's debouncer, sampled every 20 ms on a fake clock from a scripted line. The script is the line's edges,
 * "100:0 300:1": low (pressed) from 100 ms, high (released) from 300 ms; high before the first. The presses are the
 * times (ms from the start) they were counted.
 */

const POLL = 20;
const DEBOUNCE = 60;

function pressesOf(script: string, untilMs: number): number[] {
  const edges = script.split(' ').map((e) => e.split(':').map(Number) as [number, number]);
  const clock = new FakeClock();
  const start = clock.monotonic();
  const d = new ButtonDebouncer({ debounceMs: DEBOUNCE });
  const presses: number[] = [];
  const tick = (): void => {
    const t = clock.monotonic() - start;
    const level = edges.filter(([at]) => at <= t).at(-1)?.[1] ?? 1;
    if (d.sample(level === 0 ? 0 : 1, clock.monotonic())) presses.push(t);
    if (t < untilMs) clock.setTimeout(tick, POLL);
  };
  tick();
  clock.advance(untilMs);
  return presses;
}

describe('ButtonDebouncer', () => {
  it('counts a clean press once, when the line has been low for the debounce time', () => {
    expect(pressesOf('100:0 300:1', 1000)).toEqual([160]);
  });

  it('ignores a bounce shorter than the debounce time', () => {
    expect(pressesOf('100:0 120:1 140:0 180:1 200:0 240:1', 1000)).toEqual([]);
  });

  it('a press that bounces first counts once, from its last edge', () => {
    expect(pressesOf('100:0 120:1 140:0 400:1', 1000)).toEqual([200]);
  });

  it('a hold is one press, however long', () => {
    expect(pressesOf('100:0', 10_000)).toEqual([160]);
  });

  it('two presses are two; a release and a press again counts again', () => {
    expect(pressesOf('100:0 300:1 500:0 700:1 720:0 900:1', 2000)).toEqual([160, 560, 780]);
  });

  it('a release that bounces is no second press', () => {
    expect(pressesOf('100:0 300:1 320:0 340:1', 1000)).toEqual([160]);
  });

  it('a line already low when reading starts is no press until it has been high', () => {
    expect(pressesOf('0:0 500:1 600:0', 1000)).toEqual([660]);
  });
});
