import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/shared/exit-codes.js';
import { ROOT } from '../helpers/cli.js';

/** The unit file's settings, read (what systemd-analyze and this Node make of it: unit.int.test.ts). */

const UNIT = path.join(ROOT, 'systemd/outfit-display.service');

describe('systemd/outfit-display.service', () => {
  it('keeps the settings Node needs, the notify protocol, the watchdog and the sandbox', async () => {
    const unit = await readFile(UNIT, 'utf8');
    for (const line of [
      'Type=notify',
      'NotifyAccess=all',
      'Restart=on-failure',
      'DynamicUser=yes',
      'StateDirectory=outfit-display',
      'CacheDirectory=outfit-display',
      'RuntimeDirectory=outfit-display',
      'ConfigurationDirectory=outfit-display',
      'LoadCredential=outfit-api-key:/etc/outfit-display/api-key',
      'After=network-online.target time-set.target',
      'SystemCallFilter=@system-service @pkey',
      'Environment=XDG_CACHE_HOME=%C/outfit-display',
    ]) {
      expect(unit.split('\n')).toContain(line);
    }
    expect(unit).toMatch(/^WatchdogSec=\d+s$/m);
    expect(unit).toMatch(/^StartLimitBurst=\d+$/m);
    // V8's JIT needs writable+executable memory.
    expect(unit).not.toMatch(/^MemoryDenyWriteExecute=yes/m);
  });

  it('is not restarted after an exit a restart cannot cure: 2 (bad config) and 3 (key rejected)', async () => {
    const unit = await readFile(UNIT, 'utf8');
    const prevent = unit.split('\n').filter((l) => l.startsWith('RestartPreventExitStatus='));
    expect(prevent).toHaveLength(1);
    const codes = prevent[0]!.slice('RestartPreventExitStatus='.length).split(/\s+/).map(Number).sort();
    expect(codes).toEqual([EXIT.USAGE, EXIT.KEY_REJECTED]);
    // Every other failure is still restarted.
    expect(unit.split('\n')).toContain('Restart=on-failure');
  });
});
