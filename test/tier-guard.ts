import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

/**
 * The fast tier's guard (a setup file of that tier alone: vitest.config.ts): a test there that starts a process or
 * opens a server fails at once, with where it belongs, instead of making `npm test` slow or dependent on the machine.
 */
const refuse = (what: string) => () => {
  throw new Error(`the fast tier ${what}: name this test file *.int.test.ts or *.sys.test.ts (test/tiers.ts)`);
};
const mutable = childProcess as unknown as Record<string, unknown>;
for (const name of ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync']) {
  mutable[name] = refuse(`starts no process (child_process.${name})`);
}
// Named imports of node:child_process see the replacements too.
syncBuiltinESMExports();
net.Server.prototype.listen = refuse('opens no server (net.Server.listen)');
