import { describe, expect, it } from 'vitest';
import {
  MAX_CLIENTS,
  TokenThrottle,
  WRONG_TOKEN_WINDOW_MS,
  WRONG_TOKENS_ALLOWED,
} from '../../src/trmnl/token-throttle.js';
import { FakeClock } from '../helpers/fake-clock.js';

describe('wrong TRMNL tokens, slowed per client', () => {
  it('five wrong tokens in a minute slow a client until the minute is over; another client is not slowed', () => {
    const clock = new FakeClock(0);
    const t = new TokenThrottle({ clock });
    for (let i = 0; i < WRONG_TOKENS_ALLOWED; i++) {
      expect(t.retryAfterS('192.0.2.7')).toBeNull();
      t.wrong('192.0.2.7');
      clock.advance(2_000);
    }
    expect(t.retryAfterS('192.0.2.7')).toBe(50);
    // The same client on a dual-stack socket.
    expect(t.retryAfterS('::ffff:192.0.2.7')).toBe(50);
    expect(t.retryAfterS('192.0.2.8')).toBeNull();
    clock.advance(WRONG_TOKEN_WINDOW_MS - 10_000);
    expect(t.retryAfterS('192.0.2.7')).toBeNull();
    // A new window: four more wrong tokens are not yet five.
    for (let i = 0; i < WRONG_TOKENS_ALLOWED - 1; i++) t.wrong('192.0.2.7');
    expect(t.retryAfterS('192.0.2.7')).toBeNull();
  });

  it('the table stays bounded: 5,000 addresses leave at most MAX_CLIENTS entries, the newest kept', () => {
    const clock = new FakeClock(0);
    const t = new TokenThrottle({ clock });
    for (let i = 0; i < 5_000; i++) {
      for (let j = 0; j < WRONG_TOKENS_ALLOWED; j++) t.wrong(`2001:db8::${i.toString(16)}`);
    }
    expect(t.size).toBeLessThanOrEqual(MAX_CLIENTS);
    expect(t.retryAfterS(`2001:db8::${(4_999).toString(16)}`)).toBe(60);
    // Windows that ended make room before any live one is dropped.
    clock.advance(WRONG_TOKEN_WINDOW_MS);
    t.wrong('198.51.100.1');
    expect(t.size).toBe(1);
  });
});
