import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/schema.js';
import { PUBLISHER_PLUGINS } from '../../src/daemon/publisher-registry.js';
import { KNOWN_PROBLEM_SOURCES } from '../../src/state/display-views.js';

/**
 * The publishers' registry, checked: one name each, a config section that exists in the one schema, problem sources
 * that no two parts share, and the recipe for adding one in the docs.
 */

describe('the publishers’ registry', () => {
  it('names each publisher once, each with a section of the config schema (or none)', () => {
    const names = PUBLISHER_PLUGINS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    const keys = Object.keys(ConfigSchema.shape);
    for (const p of PUBLISHER_PLUGINS) if (p.configKey !== null) expect(keys, p.name).toContain(p.configKey);
  });

  it('gives every problem source one part: the views’ own and the publishers’ do not collide', () => {
    const builtIn = new Map(KNOWN_PROBLEM_SOURCES.map((s) => [s.source, s]));
    const seen = new Set<string>();
    for (const p of PUBLISHER_PLUGINS) {
      for (const s of p.problems) {
        expect(seen.has(s.source), `${p.name}: ${s.source}`).toBe(false);
        seen.add(s.source);
        // A publisher may declare a source the views know only as that very description.
        if (builtIn.has(s.source)) expect(builtIn.get(s.source), s.source).toBe(s);
      }
    }
  });

  it('has its recipe in docs/contributing/recipes.md, naming the registry and the contract', () => {
    const recipe = readFileSync('docs/contributing/recipes.md', 'utf8');
    for (const f of [
      'src/daemon/publisher-registry.ts',
      'src/publish/plugin.ts',
      'src/shared/codes.ts',
      'src/config/schema.ts',
      'test/tiers.ts',
    ])
      expect(recipe).toContain(f);
  });
});
