import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI, ROOT } from './cli.js';

/**
 * The built CLI as a process, like startCli() in cli.ts, with what the fault tests need beside it: extra arguments
 * for node itself (a preload such as clock-offset.js), and a wrapper command the node process is exec'd from (such
 * as `unshare -m sh -c '<mount a tmpfs>; exec "$@"'`), so that the child's pid is node's own.
 */

/** The preload that offsets the daemon's wall clock by the number of ms in OUTFIT_TEST_CLOCK_OFFSET_FILE. */
export const CLOCK_OFFSET_PRELOAD = path.join(ROOT, 'test/helpers/clock-offset.js');

export interface NodeCliOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Arguments for node before the script (e.g. ['--import', url]). */
  nodeArgs?: string[];
  /** A command that ends by exec'ing its trailing arguments ("$@"): the node command line is appended to it. */
  wrap?: string[];
  /** A file whose number is the clock offset in ms: adds the clock-offset preload. */
  clockOffsetFile?: string;
}

export function startNodeCli(args: string[], opts: NodeCliOptions = {}): ChildProcess {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" before these tests`);
  const nodeArgs = [...(opts.nodeArgs ?? [])];
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...opts.env };
  if (opts.clockOffsetFile !== undefined) {
    nodeArgs.push('--import', pathToFileURL(CLOCK_OFFSET_PRELOAD).href);
    env.OUTFIT_TEST_CLOCK_OFFSET_FILE = opts.clockOffsetFile;
  }
  const command = [process.execPath, ...nodeArgs, CLI, ...args];
  const [file, ...rest] = opts.wrap ? [...opts.wrap, ...command] : command;
  return spawn(file ?? process.execPath, rest, { cwd: opts.cwd ?? ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** What a started process wrote (stdout and stderr, in the order it came) and its exit code, as a test watches them. */
export function watchProcess(child: ChildProcess): { output: () => string; exited: Promise<number | null> } {
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { output: () => out, exited };
}
