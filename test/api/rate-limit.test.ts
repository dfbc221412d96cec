import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_AFTER_MS, parseRetryAfter, readRateLimit } from '../../src/api/rate-limit.js';

const NOW = Date.parse('2026-11-21T10:00:00.000Z');

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('5', NOW)).toBe(5000);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
    expect(parseRetryAfter('0', NOW)).toBe(0);
  });

  it('reads an HTTP date relative to the injected clock', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:59:00 GMT', NOW)).toBe(0);
  });

  it('waits the spec default of 60 s when missing or unreadable', () => {
    expect(DEFAULT_RETRY_AFTER_MS).toBe(60_000);
    for (const v of [undefined, '', 'soon', '-3', '1.5', '5s']) expect(parseRetryAfter(v, NOW)).toBe(60_000);
  });

  it('takes the first of repeated headers', () => {
    expect(parseRetryAfter(['7', '9'], NOW)).toBe(7000);
  });
});

describe('readRateLimit', () => {
  it('reads both headers and stamps the time', () => {
    expect(readRateLimit({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '12' }, NOW)).toEqual({
      limit: 60,
      remaining: 12,
      observedAt: NOW,
    });
  });

  it('gives null for missing or non-numeric values', () => {
    expect(readRateLimit({ 'x-ratelimit-remaining': 'lots' }, NOW)).toEqual({
      limit: null,
      remaining: null,
      observedAt: NOW,
    });
  });
});
