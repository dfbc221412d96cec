import { describe, expect, it } from 'vitest';
import { LearningRedactor, redactor, redactJson } from '../../src/shared/redactor.js';
import { secretValues } from '../../src/config/secrets.js';

describe('the redactor built from the loaded secrets', () => {
  it('replaces every occurrence of every secret, the longest first, and skips missing ones', () => {
    const redact = redactor(['sk_live_abc', 'sk_live_abcdef', null, undefined, '']);
    expect(redact('key sk_live_abcdef, then sk_live_abc, again sk_live_abc.')).toBe(
      'key [redacted], then [redacted], again [redacted].',
    );
  });

  it('redacts a short secret too (an MQTT password may be three letters)', () => {
    expect(redactor(['pw1'])('connack: bad password pw1')).toBe('connack: bad password [redacted]');
  });

  it('leaves text alone when there are no secrets', () => {
    expect(redactor([])('nothing to hide')).toBe('nothing to hide');
  });
});

describe('the logger’s redactor, which learns', () => {
  it('redacts what it learned later too, and says whether a text may hold a secret, also JSON-escaped', () => {
    const r = new LearningRedactor(['key-1']);
    r.learn(['pw"2', null, '']);
    expect(r.redact('key-1 and pw"2')).toBe('[redacted] and [redacted]');
    expect(r.mayHold(JSON.stringify({ reason: 'bad pw"2' }))).toBe(true);
    expect(r.mayHold('nothing here')).toBe(false);
  });

  it('every secret of a loaded config: key, MQTT password and TRMNL tokens', () => {
    const values = secretValues({
      apiKey: 'k',
      apiKeySource: 'file x',
      mqttPassword: null,
      trmnlTokens: new Map([['AA:BB:CC:DD:EE:01', 't']]),
    });
    expect(values).toEqual(['k', 't']);
  });
});

describe('redactJson', () => {
  const redact = redactor(['sk_live_SECRET']);
  it('redacts every string of a parsed answer, names of fields included, and keeps numbers, booleans and null', () => {
    const answer = {
      outfit: 'Coat sk_live_SECRET',
      n: 3,
      ok: true,
      none: null,
      weather: { alerts: ['a sk_live_SECRET', { title: 'sk_live_SECRET' }] },
      sk_live_SECRET: 'x',
    };
    expect(redactJson(answer, redact)).toEqual({
      outfit: 'Coat [redacted]',
      n: 3,
      ok: true,
      none: null,
      weather: { alerts: ['a [redacted]', { title: '[redacted]' }] },
      '[redacted]': 'x',
    });
  });
  it('returns the very value when it holds no secret (no copy on the usual path)', () => {
    const answer = { outfit: 'Coat', weather: { alerts: ['wind'] } };
    expect(redactJson(answer, redact)).toBe(answer);
  });
});
