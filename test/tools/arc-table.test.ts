import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { arcTable } from './arc-table.js';
import { packageRoot } from '../../src/shared/package-root.js';

describe('the arc-minute table in docs/reference/frame-rules.md', () => {
  it('is what the layouts draw today, on every panel either way round (node dist/test/tools/arc-table.js prints it)', () => {
    const table = arcTable();
    expect(table.split('\n').length).toBeGreaterThan(20);
    const doc = readFileSync(join(packageRoot(), 'docs', 'reference', 'frame-rules.md'), 'utf8');
    expect(doc).toContain(table);
  }, 60_000);
});
