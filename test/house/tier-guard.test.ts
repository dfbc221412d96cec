import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';

// This file is in the fast tier (its name has no tier suffix: test/tiers.ts): the guard must be installed here.
describe('the fast tier', () => {
  it('refuses to start a process, naming where the test belongs', () => {
    expect(() => spawn('true')).toThrow(
      /fast tier starts no process \(child_process\.spawn\).*\*\.int\.test\.ts.*test\/tiers\.ts/,
    );
  });
  it('refuses to open a server', () => {
    expect(() => createServer().listen(0, '127.0.0.1')).toThrow(/fast tier opens no server/);
  });
});
