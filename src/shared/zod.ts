import { z } from 'zod';

/**
 * zod, as every schema of src/ imports it (`npm run deps` refuses a direct import of the package), set up once.
 *
 * jitless: on an object schema's first parse zod otherwise writes a parser for its shape and compiles it with
 * `new Function`. That pays back over many parses of one schema; this program parses each schema a few times a day
 * (the config at start and on reload, an answer per purchase), and the compile is a cost every one-shot command
 * pays afresh, since V8's code cache cannot hold code made at run time. Parsing, issues and messages are the same.
 */
z.config({ jitless: true });

export { z };
