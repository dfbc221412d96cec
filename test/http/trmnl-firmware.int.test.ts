import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveSchedules } from '../../src/budget/planner.js';
import { loadConfig } from '../../src/config/load.js';
import { buildPublishers } from '../../src/daemon/publishers.js';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import type { Publisher } from '../../src/publish/publisher.js';
import { FIRMWARE_MAX_BYTES } from '../../src/trmnl/firmware-files.js';
import { FIRMWARE_RETRY_MS } from '../../src/trmnl/firmware-offers.js';
import { tempConfig } from '../helpers/cli.js';
import { configYaml } from '../helpers/config-yaml.js';
import { httpRequest } from '../helpers/http-client.js';
import { testViews } from '../helpers/views.js';
import { budgetStatus } from '../fixtures/budget-status.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { manualClock } from '../helpers/fake-clock.js';

/**
 * Self-hosted firmware updates end to end: the config as an owner writes it (a relative folder), the daemon's
 * wiring (buildPublishers), /api/display over a real socket, the download, the status page and state.json.
 */

const MAC = 'AA:BB:CC:DD:EE:01';
const OTHER = 'AA:BB:CC:DD:EE:02';
const TOKEN = 'tok-hallway-0123456789';
const OTHER_TOKEN = 'tok-porch-0123456789';
/** A firmware image the size of a real one, so that the download is streamed in many chunks. */
const IMAGE = randomBytes(1_500_000);

interface DisplayAnswer {
  status: number;
  update_firmware: boolean;
  firmware_url: string | null;
}

describe('TRMNL firmware updates', () => {
  const started: Publisher[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.stop()));
  });

  /** The daemon's HTTP server for a config with `firmware` under trmnl: (null: none) and the devices' extra lines. */
  async function serve(opts: { firmware?: string[] | null; allowed?: boolean } = {}) {
    const firmware =
      opts.firmware === undefined
        ? ['  firmware:', '    dir: firmware', '    battery_floor_pct: 40']
        : (opts.firmware ?? []);
    const { dir, file } = await tempConfig(
      configYaml({
        displays: [
          { id: 'hallway', panel: 'trmnl' },
          { id: 'porch', panel: 'trmnl' },
        ],
        sections: [
          'http:',
          '  listen: 127.0.0.1:0',
          'trmnl:',
          '  devices:',
          `    - mac: "${MAC}"`,
          '      display: hallway',
          `      token: ${TOKEN}`,
          ...(opts.allowed === false ? [] : ['      firmware_updates: true']),
          `    - mac: "${OTHER}"`,
          '      display: porch',
          `      token: ${OTHER_TOKEN}`,
          ...firmware,
        ],
      }),
    );
    await mkdir(path.join(dir, 'state'));
    await mkdir(path.join(dir, 'firmware'));
    await writeFile(path.join(dir, 'firmware', '1.7.3.bin'), IMAGE);
    await writeFile(path.join(dir, 'firmware', '1.6.0.bin'), 'an older image, never offered');
    const loaded = await loadConfig(file, { env: {} });
    const clock = manualClock();
    const cap = capturingLogger();
    const publishers = await buildPublishers(loaded, {
      logger: cap.logger,
      clock,
      views: testViews({ displays: loaded.config.displays, clock, budget: budgetStatus }).views,
      runs: { refresh: () => Promise.resolve(null) },
      schedules: resolveSchedules(loaded.config),
      refreshUnavailable: null,
    });
    started.push(...publishers);
    for (const p of publishers) await p.start();
    const url = publishers.find((p): p is HttpPublisher => p instanceof HttpPublisher)!.url!;
    const wake = async (headers: Record<string, string> = {}, mac = MAC, token = TOKEN): Promise<DisplayAnswer> => {
      const r = await httpRequest(`${url}/api/display`, {
        headers: {
          ID: mac,
          'Access-Token': token,
          'FW-Version': '1.6.2',
          'Percent-Charged': '80',
          'Battery-Charging': 'false',
          ...headers,
        },
      });
      expect(r.status).toBe(200);
      return r.json<DisplayAnswer>();
    };
    return { url, clock, wake, logs: cap.text, loaded, dir: path.join(dir, 'firmware'), root: dir };
  }

  it('is off by default: no trmnl.firmware, or a device without firmware_updates, is never offered one; nothing is served', async () => {
    const none = await serve({ firmware: null });
    expect(none.loaded.config.trmnl?.firmware).toBeUndefined();
    expect(none.loaded.config.trmnl?.devices[1]?.firmware_updates).toBe(false);
    expect(await none.wake({ 'Battery-Charging': 'true' })).toMatchObject({
      status: 0,
      update_firmware: false,
      firmware_url: null,
    });
    expect((await httpRequest(`${none.url}/trmnl/firmware/1.7.3.bin`)).status).toBe(404);

    const notAllowed = await serve({ allowed: false });
    expect(await notAllowed.wake({ 'Battery-Charging': 'true' })).toMatchObject({
      update_firmware: false,
      firmware_url: null,
    });
    expect(await notAllowed.wake({}, OTHER, OTHER_TOKEN)).toMatchObject({ update_firmware: false, firmware_url: null });
    expect((await httpRequest(`${notAllowed.url}/trmnl/firmware/1.7.3.bin`)).status).toBe(404);
  });

  it('offers an allowed device on another version the newest file, charging or above the floor; serves it with its length and SHA-256', async () => {
    const { url, wake, loaded } = await serve();
    expect(loaded.config.trmnl?.firmware?.dir).toBe(path.join(path.dirname(loaded.file), 'firmware'));
    // Below the floor and not charging; then the same version: no offer.
    expect(await wake({ 'Percent-Charged': '39' })).toMatchObject({ update_firmware: false, firmware_url: null });
    expect(await wake({ 'Percent-Charged': '', 'Battery-Voltage': '' })).toMatchObject({ update_firmware: false });
    expect(await wake({ 'FW-Version': '1.7.3', 'Battery-Charging': 'true' })).toMatchObject({
      update_firmware: false,
      firmware_url: null,
    });
    // Charging, whatever the charge.
    const offer = await wake({ 'Percent-Charged': '5', 'Battery-Charging': 'true' });
    expect(offer).toMatchObject({ status: 0, update_firmware: true, firmware_url: `${url}/trmnl/firmware/1.7.3.bin` });

    const dl = await httpRequest(offer.firmware_url!);
    expect(dl.status).toBe(200);
    expect(dl.headers['content-type']).toBe('application/octet-stream');
    expect(Number(dl.headers['content-length'])).toBe(IMAGE.length);
    expect(dl.body.length).toBe(IMAGE.length);
    expect(dl.headers['x-firmware-sha256']).toBe(createHash('sha256').update(IMAGE).digest('hex'));
    expect(dl.headers['x-firmware-sha256']).toBe(createHash('sha256').update(dl.body).digest('hex'));
    expect(dl.headers.digest).toBe(`sha-256=${createHash('sha256').update(IMAGE).digest('base64')}`);
    const head = await httpRequest(offer.firmware_url!, { method: 'HEAD' });
    expect([head.status, Number(head.headers['content-length']), head.body.length]).toEqual([200, IMAGE.length, 0]);

    // Unknown versions, a file of the folder never offered, and what is no version: 404.
    for (const p of [
      '/trmnl/firmware/9.9.9.bin',
      '/trmnl/firmware/1.6.0.bin',
      '/trmnl/firmware/..%2Fconfig.yaml.bin',
      '/trmnl/firmware/1.7.3',
    ]) {
      expect((await httpRequest(`${url}${p}`)).status, p).toBe(404);
    }
    expect((await httpRequest(offer.firmware_url!, { method: 'POST' })).status).toBe(405);
  });

  it('a device back on its old version failed: no offer at that wake, again once the firmware retries (24 h); on the page and in state.json', async () => {
    const { url, clock, wake, logs } = await serve();
    expect((await wake()).update_firmware).toBe(true);
    const page1 = (await httpRequest(`${url}/`)).text();
    expect(page1).toContain(`${MAC}: offered 1.7.3 at`);

    clock.advance(15 * 60_000);
    expect(await wake()).toMatchObject({ update_firmware: false, firmware_url: null });
    expect(logs()).toContain('W_FIRMWARE_UPDATE_FAILED');
    expect((await httpRequest(`${url}/`)).text()).toContain(`${MAC}: update to 1.7.3 failed (seen`);
    const state = (await httpRequest(`${url}/displays/hallway/state.json`)).json<{ firmware_offers: unknown[] }>();
    expect(state.firmware_offers).toEqual([
      expect.objectContaining({ mac: MAC, version: '1.7.3', outcome: 'failed', failures: 1 }),
    ]);
    const porch = (await httpRequest(`${url}/displays/porch/state.json`)).json<{ firmware_offers: unknown[] }>();
    expect(porch.firmware_offers).toEqual([]);

    // The firmware ignores offers for 24 h after a failure: an offer now would come back as another "failure".
    clock.advance(15 * 60_000);
    expect((await wake()).update_firmware).toBe(false);
    clock.advance(FIRMWARE_RETRY_MS);
    expect((await wake()).update_firmware).toBe(true);
    expect((await httpRequest(`${url}/`)).text()).toMatch(new RegExp(`${MAC}: offered 1.7.3 at [^<]*, failed once`));
    // The download is still served while the offer is open; then the device comes back updated.
    expect((await httpRequest(`${url}/trmnl/firmware/1.7.3.bin`)).status).toBe(200);
    clock.advance(60_000);
    expect((await wake({ 'FW-Version': '1.7.3' })).update_firmware).toBe(false);
    expect((await httpRequest(`${url}/`)).text()).toMatch(
      new RegExp(`${MAC}: updated to 1.7.3 \\(seen [^<]*\\), failed once`),
    );
  });

  it('serves only its own regular files: a link out of the folder and a sparse file over the bound are neither offered nor served, each said once', async () => {
    const { url, wake, logs, dir, root } = await serve();
    // A file outside the folder stands for /etc/shadow.
    const secret = path.join(root, 'shadow');
    await writeFile(secret, 'root:$6$secret-hash:19000:0:99999:7:::\n');
    await symlink(secret, path.join(dir, '9.9.9.bin'));
    await writeFile(path.join(dir, '10.0.0.bin'), '');
    await truncate(path.join(dir, '10.0.0.bin'), 500 * 1024 * 1024);
    await writeFile(path.join(dir, '9.9.10.bin'), Buffer.alloc(FIRMWARE_MAX_BYTES + 1, 1));

    // The newest file that is the folder's own and small enough is offered; the folder is listed again at later wakes.
    expect(await wake({ 'Battery-Charging': 'true' })).toMatchObject({
      update_firmware: true,
      firmware_url: `${url}/trmnl/firmware/1.7.3.bin`,
    });
    for (let i = 0; i < 3; i++) expect((await wake({ 'Battery-Charging': 'true' })).firmware_url).toBeNull();
    for (const v of ['9.9.9', '10.0.0', '9.9.10']) {
      const r = await httpRequest(`${url}/trmnl/firmware/${v}.bin`);
      expect(r.status, v).toBe(404);
      expect(r.text()).not.toContain('secret-hash');
    }
    const refused = logs()
      .split('\n')
      .filter((l) => l.includes('W_FIRMWARE_REFUSED'))
      .map((l) => JSON.parse(l) as { file: string; reason: string });
    expect(refused.map((r) => [path.basename(r.file), r.reason]).sort()).toEqual([
      ['10.0.0.bin', 'over the size bound'],
      ['9.9.10.bin', 'over the size bound'],
      ['9.9.9.bin', 'a symbolic link'],
    ]);
    expect(logs()).not.toContain('secret-hash');
  });

  it('a link, a large file or a FIFO swapped in after the offer is not followed, read or waited on: 404; the file back, 200', async () => {
    const { url, wake, logs, dir, root } = await serve();
    const offer = await wake({ 'Battery-Charging': 'true' });
    expect(offer.firmware_url).toBe(`${url}/trmnl/firmware/1.7.3.bin`);
    const file = path.join(dir, '1.7.3.bin');
    const secret = path.join(root, 'shadow');
    await writeFile(secret, 'root:$6$secret-hash:19000:0:99999:7:::\n');

    await rename(file, path.join(root, 'kept.bin'));
    await symlink(secret, file);
    const linked = await httpRequest(offer.firmware_url!);
    expect(linked.status).toBe(404);
    expect(linked.text()).not.toContain('secret-hash');
    expect((await httpRequest(offer.firmware_url!, { method: 'HEAD' })).status).toBe(404);

    await rm(file);
    await writeFile(file, '');
    await truncate(file, 500 * 1024 * 1024);
    expect((await httpRequest(offer.firmware_url!)).status).toBe(404);

    // Opened as a plain read, a FIFO would hold the request (and a thread of Node's pool) until a writer came.
    await rm(file);
    execFileSync('mkfifo', [file]);
    expect((await httpRequest(offer.firmware_url!)).status).toBe(404);

    await rm(file);
    await rename(path.join(root, 'kept.bin'), file);
    const dl = await httpRequest(offer.firmware_url!);
    expect(dl.status).toBe(200);
    expect(dl.body.equals(IMAGE)).toBe(true);
    const reasons = logs()
      .split('\n')
      .filter((l) => l.includes('W_FIRMWARE_REFUSED'))
      .map((l) => (JSON.parse(l) as { reason: string }).reason);
    expect(reasons).toEqual(['a symbolic link', 'over the size bound', 'not a regular file']);
  });
});
