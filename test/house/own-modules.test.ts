import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OWN_MODULES } from '../tiers.js';

/**
 * The fast tier shares one module registry a worker (vitest.config.ts), so a fast file that replaces a module with
 * `vi.mock` must be listed in OWN_MODULES (test/tiers.ts), which runs with a registry of its own: elsewhere its mock
 * would apply to whichever file loaded the module first, or to none, and what it counts would be nothing.
 */

const ROOT = path.join(import.meta.dirname, '..', '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : testFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const fast = (f: string): boolean => !/\.(int|sys)\.test\.ts$/.test(f);
const mocks = (source: string): boolean => /\bvi\s*\.\s*(mock|doMock)\s*\(/.test(source);

describe('fast files that replace a module', () => {
  it('tells a mocking file from one that does not', () => {
    expect(mocks("vi.mock('../../src/render/text/fonts.js', async () => ({}));")).toBe(true);
    expect(mocks("vi.doMock('x')")).toBe(true);
    expect(mocks("vi.fn(); vi.spyOn(a, 'b'); // vi.mocked")).toBe(false);
  });

  it('are exactly those in OWN_MODULES, which run with a module registry of their own', () => {
    const found = testFiles(path.join(ROOT, 'test'))
      // This file's own examples above are strings, not mocks.
      .filter((f) => f !== import.meta.filename && fast(f) && mocks(readFileSync(f, 'utf8')))
      .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
      .sort();
    expect(found).toEqual([...OWN_MODULES].sort());
  });
});
