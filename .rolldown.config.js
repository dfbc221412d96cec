import { defineConfig } from 'rolldown';

/**
 * `npm run build`'s bundle of tsc's output (dist/src/bin.js and what it imports) into dist/app/, with rolldown's
 * defaults but one: the chunks are CommonJS (`.cjs`, since the package is `"type": "module"`). The sources stay ES
 * modules. Node loads a CommonJS file with less work than an ES module (no URL resolution and module job per file, no
 * ES facade per built-in module it imports), and a one-shot command such as `render` pays that for each of its files
 * (docs/contributing/performance.md). A chunk for each set of modules that the lazy imports (`await import()`) reach,
 * so that a command loads only what it uses, in fewer files than tsc's one a module. canvas stays outside: its native
 * addon is loaded from node_modules. The source maps let a test name the modules a process loaded
 * (test/cli/lazy-loading.int.test.ts). .ci/bundle.js makes it through rolldown's build(), which prints nothing unless it
 * fails. dist/cli.js, the program's entry, runs dist/app/bin.cjs (.ci/build-id.js writes it, and the build's id).
 */
export default defineConfig({
  input: 'dist/src/bin.js',
  platform: 'node',
  external: ['canvas'],
  logLevel: 'warn',
  output: {
    dir: 'dist/app',
    format: 'cjs',
    entryFileNames: '[name].cjs',
    chunkFileNames: '[name]-[hash].cjs',
    sourcemap: true,
    cleanDir: true,
  },
});
