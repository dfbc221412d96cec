import { main } from './cli.js';

// The process entry point (dist/cli.js imports this): run the command, set the exit code, nothing else.
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`fatal: ${String(err)}\n`);
    process.exitCode = 1;
  },
);
