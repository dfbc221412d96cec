import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { ConfigError } from '../../src/config/load.js';

/** What the secret tests (secrets.test.ts, secrets.int.test.ts) write their configs with and check them by. */

export const KEY_A = 'sk_live_FIRSTpart7f3a9c1e';
export const KEY_B = 'sk_live_SECONDpart5b2d4086';

export interface SecretConfig {
  /** The config file. */
  file: string;
  /** A path in the config's folder (where its relative key_file, password_file and token_file are). */
  at: (name: string) => string;
}

/**
 * A folder for the test file's configs, made before its tests and removed after them: returns a writer of a config
 * with the given extra YAML lines, each in a folder of its own.
 */
export function secretConfigs(): (lines: string[]) => Promise<SecretConfig> {
  let dir = '';
  let n = 0;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'outfit-secrets-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return async (lines) => {
    const d = path.join(dir, `c${n++}`);
    await mkdir(d);
    const file = path.join(d, 'config.yaml');
    const yaml = [
      'api:',
      '  base_url: https://outfit.example/v1',
      ...lines,
      'budget:',
      '  credits_per_day: 100',
      'timezone: UTC',
      'displays:',
      '  - id: hallway',
      '    lat: 52.52',
      '    lon: 13.405',
      'output_dir: frames',
      'state_dir: state',
      '',
    ].join('\n');
    await writeFile(file, yaml);
    return { file, at: (name) => path.join(d, name) };
  };
}

/** The problems of the ConfigError that `p` must reject with. */
export async function problemsOf(p: Promise<unknown>): Promise<string[]> {
  const err = await p.then(
    () => new Error('expected a ConfigError'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return (err as ConfigError).problems;
}

/** No part of any of these secrets in the text. */
export function expectNoSecret(text: string, ...secrets: string[]): void {
  for (const s of secrets) {
    expect(text).not.toContain(s);
    if (s.length >= 18) expect(text).not.toContain(s.slice(8, 18));
  }
}
