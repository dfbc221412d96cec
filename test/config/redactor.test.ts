import { describe, expect, it } from 'vitest';
import { redactor } from '../../src/config/redactor.js';

describe('the redactor built from the loaded secrets', () => {
  it('replaces every occurrence of every secret, the longest first, and skips missing ones', () => {
    const redact = redactor(['sk_live_abc', 'sk_live_abcdef', null, undefined, '']);
    expect(redact('key sk_live_abcdef, then sk_live_abc, again sk_live_abc.')).toBe('key [redacted], then [redacted], again [redacted].');
  });

  it('redacts a short secret too (an MQTT password may be three letters)', () => {
    expect(redactor(['pw1'])('connack: bad password pw1')).toBe('connack: bad password [redacted]');
  });

  it('leaves text alone when there are no secrets', () => {
    expect(redactor([])('nothing to hide')).toBe('nothing to hide');
  });
});
