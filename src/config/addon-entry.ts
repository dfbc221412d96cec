import { readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { EXIT, type ExitCode } from '../shared/exit-codes.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { convertAddonOptions } from './addon-options.js';
import { ConfigError, loadConfig } from './load.js';
import { serializeError } from '../log/logging.js';

/**
 * The Home Assistant add-on's first step at every start: the options form (/data/options.json) and the user's
 * /config/outfit-display.yaml become /data/outfit-display.yaml, the API key goes to a 0600 file that the config names,
 * and the result is checked with the real loader, so that a bad form stops here (exit 2, one `E_CONFIG` line a problem,
 * each naming the option or the file's key) and never starts a half-configured daemon. The key is never printed.
 *
 *   node dist/src/config/addon-entry.js [--options F] [--user-config F] [--out F] [--key-file F]
 *        [--output-dir D] [--state-dir D]
 */

const ADDON_DEFAULTS = {
  options: '/data/options.json',
  'user-config': '/config/outfit-display.yaml',
  out: '/data/outfit-display.yaml',
  'key-file': '/data/api-key',
  'output-dir': '/data/frames',
  'state-dir': '/data',
} as const;

export interface AddonEntryIo {
  /** One line for a person or a log collector (stdout). */
  out: (line: string) => void;
  /** One line per problem (stderr). */
  err: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

function jsonLine(level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({
    level,
    time: new Date().toISOString(),
    app: 'outfit-display',
    part: 'addon',
    ...fields,
    msg,
  });
}

async function readOptional(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Converts and validates; returns the exit code (0: the config is written and the daemon may start). */
export async function runAddonEntry(argv: string[], io: AddonEntryIo): Promise<ExitCode> {
  const fail = (problems: string[]): ExitCode => {
    for (const p of problems) io.err(jsonLine('error', `E_CONFIG: ${p}`, { code: 'E_CONFIG' }));
    return EXIT.USAGE;
  };
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: Object.fromEntries(Object.keys(ADDON_DEFAULTS).map((k) => [k, { type: 'string' as const }])),
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    return fail([`usage: ${(err as Error).message}`]);
  }
  const arg = (k: keyof typeof ADDON_DEFAULTS): string => path.resolve(values[k] ?? ADDON_DEFAULTS[k]);
  const optionsFile = arg('options');
  const userFile = arg('user-config');
  const outFile = arg('out');
  const keyFile = arg('key-file');

  let options: unknown;
  let userYaml: string | null;
  try {
    const text = await readFile(optionsFile, 'utf8');
    try {
      options = JSON.parse(text);
    } catch {
      // Not the parser's message: it quotes the text around the error, which may be the API key.
      return fail([`${optionsFile}: not JSON`]);
    }
  } catch (err) {
    return fail([`${optionsFile}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? String(err)})`]);
  }
  try {
    userYaml = await readOptional(userFile);
  } catch (err) {
    return fail([`${userFile}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? String(err)})`]);
  }

  const converted = convertAddonOptions(options, userYaml, {
    keyFile,
    outputDir: arg('output-dir'),
    stateDir: arg('state-dir'),
    userFile,
  });
  if (!converted.ok) return fail(converted.problems);
  // Checked under a name beside the config (relative paths resolve alike) and renamed only when good: a bad form
  // leaves the last good config, or none, never a bad one for the daemon to start with.
  const candidate = path.join(path.dirname(outFile), `.${path.basename(outFile)}.candidate`);
  try {
    if (converted.apiKey !== null) await writeFileAtomic(keyFile, `${converted.apiKey}\n`, { mode: 0o600 });
    await writeFileAtomic(candidate, stringify(converted.config), { mode: 0o644 });
  } catch (err) {
    return fail([
      `cannot write ${(err as NodeJS.ErrnoException).path ?? outFile} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    ]);
  }
  try {
    const loaded = await loadConfig(candidate, { env: io.env ?? process.env });
    for (const w of loaded.warnings)
      io.out(
        jsonLine('warn', converted.describe(w.replace(/^(W_[A-Z_]+): /, '')), { code: /^W_[A-Z_]+/.exec(w)?.[0] }),
      );
    await rename(candidate, outFile);
  } catch (err) {
    await rm(candidate, { force: true });
    if (err instanceof ConfigError) return fail(err.problems.map(converted.describe));
    throw err;
  }
  io.out(
    jsonLine('info', 'add-on options converted', {
      config: outFile,
      displays: (converted.config.displays as unknown[]).length,
    }),
  );
  return EXIT.OK;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAddonEntry(process.argv.slice(2), {
    out: (l) => process.stdout.write(`${l}\n`),
    err: (l) => process.stderr.write(`${l}\n`),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      // The one shape of a failure in a log line: `err` with its code (a file system error's EACCES, ENOSPC…).
      process.stderr.write(`${jsonLine('error', 'add-on start failed', { err: serializeError(err) })}\n`);
      process.exitCode = EXIT.FAILURE;
    },
  );
}
