// A preload (`node --import <this file's URL> ...`) that shifts the wall clock of the process it runs in, so that a
// test can step the daemon's clock back and forward without touching the system clock.
//
// The offset, in ms, is read from the file named by OUTFIT_TEST_CLOCK_OFFSET_FILE (a missing or unreadable file
// counts as 0), at most every 100 ms of elapsed time. Date.now() and `new Date()` (no arguments) include it; elapsed
// time (performance.now(), timers) does not, exactly as when the real clock is stepped.
import { readFileSync } from 'node:fs';

const file = process.env.OUTFIT_TEST_CLOCK_OFFSET_FILE;
const RealDate = Date;
const realNow = RealDate.now.bind(RealDate);
let offset = 0;
let checkedAt = -Infinity;

function currentOffset() {
  const t = performance.now();
  if (file && t - checkedAt >= 100) {
    checkedAt = t;
    try {
      const n = Number(readFileSync(file, 'utf8').trim());
      offset = Number.isFinite(n) ? n : 0;
    } catch {
      offset = 0;
    }
  }
  return offset;
}

function now() {
  return realNow() + currentOffset();
}

globalThis.Date = new Proxy(RealDate, {
  construct(target, args, newTarget) {
    return Reflect.construct(
      target,
      args.length === 0 ? [now()] : args,
      newTarget === globalThis.Date ? target : newTarget,
    );
  },
  apply() {
    return new RealDate(now()).toString();
  },
  get(target, prop, receiver) {
    if (prop === 'now') return now;
    return Reflect.get(target, prop, receiver);
  },
});
