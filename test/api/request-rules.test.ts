import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../src/api/errors.js';
import { checkRecommendRequest, checkWeatherQuery } from '../../src/api/request-rules.js';
import { ConfigError, loadConfig } from '../../src/config/load.js';

describe('coordinates too large to represent (lat: 1e400)', () => {
  it('the request check says what the number is, not "got null"', () => {
    // JSON and YAML read 1e400 as Infinity; JSON.stringify(Infinity) is "null".
    const lat = JSON.parse('1e400') as number;
    expect(() => checkRecommendRequest({ lat, lon: 13 })).toThrow(InvalidRequestError);
    expect(() => checkRecommendRequest({ lat, lon: 13 })).toThrow(
      'invalid request: lat must be a finite number between -90 and 90 (got a number too large to represent) (not sent)',
    );
    expect(() => checkWeatherQuery({ lat: 0, lon: -lat })).toThrow(
      'lon must be a finite number between -180 and 180 (got a number too small to represent)',
    );
    expect(() => checkWeatherQuery({ lat: Number.NaN, lon: 0 })).toThrow('(got not a number (NaN))');
    expect(() => checkWeatherQuery({ lat: 91, lon: 0 })).toThrow(
      'lat must be a finite number between -90 and 90 (got the number 91)',
    );
  });

  it('the config check says the same, with the key path', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'od-lat-'));
    try {
      const file = path.join(dir, 'c.yaml');
      await writeFile(
        file,
        'api: {base_url: simulated}\ntimezone: UTC\nbudget: {credits_per_day: 100}\n' +
          `displays:\n  - {id: a, lat: 1e400, lon: -1e400, schedule: "0 * * * *"}\noutput_dir: ${dir}\nstate_dir: ${dir}\n`,
      );
      const err = await loadConfig(file).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ConfigError);
      const text = (err as ConfigError).message;
      expect(text).toContain(
        'displays[0].lat: must be a finite number between -90 and 90 (got a number too large to represent)',
      );
      expect(text).toContain(
        'displays[0].lon: must be a finite number between -180 and 180 (got a number too small to represent)',
      );
      expect(text).not.toContain('got null');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
