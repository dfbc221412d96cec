// The simulated outfit service (the built dist/src/service-sim) as its own process, like `outfit-display service-sim`,
// plus what its HTTP control endpoints lack: revoking a key and setting a key's credits, as JSON lines on stdin
// ({"id":1,"op":"revoke","key":"..."} or {"id":2,"op":"setCredits","key":"...","credits":0}), each answered on
// stdout with {"id":1,"ok":true}. The first line on stdout is {"url":"http://127.0.0.1:<port>/v1"}.
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { startServiceSim } = await import(pathToFileURL(path.join(root, 'dist/src/service-sim/server.js')).href);

const sim = await startServiceSim({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ url: sim.url })}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  let id = null;
  try {
    const cmd = JSON.parse(line);
    id = cmd.id ?? null;
    if (cmd.op === 'revoke') sim.revokeKey(cmd.key);
    else if (cmd.op === 'setCredits') sim.setCredits(cmd.key, cmd.credits);
    else throw new Error(`unknown op ${String(cmd.op)}`);
    process.stdout.write(`${JSON.stringify({ id, ok: true })}\n`);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ id, ok: false, error: String(err) })}\n`);
  }
});

const stop = () => void sim.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
