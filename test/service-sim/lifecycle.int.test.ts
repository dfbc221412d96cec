import { createServer } from 'node:net';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY, startServiceSim } from '../../src/service-sim/server.js';
import { BERLIN, call } from './helpers.js';

describe('startServiceSim', () => {
  it('serves on a free port of 127.0.0.1 by default, with a base URL ending in /v1', async () => {
    const a = await startServiceSim();
    const b = await startServiceSim();
    try {
      expect(a.url).toBe(`http://127.0.0.1:${a.port}/v1`);
      expect(a.port).toBeGreaterThan(0);
      expect(b.port).not.toBe(a.port);
      expect((await call(a, 'POST', '/v1/recweather', { key: DEMO_API_KEY, body: BERLIN })).status).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('listens on the port it is given', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const address = probe.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const sim = await startServiceSim({ port });
    try {
      expect(sim.port).toBe(port);
      expect(sim.url).toBe(`http://127.0.0.1:${port}/v1`);
    } finally {
      await sim.close();
    }
  });

  it('rejects when the port is taken', async () => {
    const first = await startServiceSim();
    try {
      await expect(startServiceSim({ port: first.port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });

  it('has a demo key with the spec prefix, sk_live_demo_ and 24 characters', () => {
    expect(DEMO_API_KEY).toMatch(/^sk_live_demo_[A-Za-z0-9]{24}$/);
  });
});

describe('close', () => {
  it('closes promptly with idle keep-alive connections open, and refuses connections after', async () => {
    const sim = await startServiceSim();
    const agent = new Agent({ keepAliveTimeout: 60_000, connections: 4 });
    try {
      await Promise.all(
        [1, 2, 3].map(() => call(sim, 'POST', '/v1/recommend', { key: DEMO_API_KEY, body: BERLIN, dispatcher: agent })),
      );
      const started = performance.now();
      await sim.close();
      expect(performance.now() - started).toBeLessThan(1_000);
      await expect(call(sim, 'GET', '/v1/weather?lat=1&lon=1', { key: DEMO_API_KEY })).rejects.toThrow();
    } finally {
      await agent.close();
    }
  });

  it('closes promptly while a slow request is waiting on the real timer, and the client sees an error', async () => {
    const sim = await startServiceSim();
    sim.injectFault({ kind: 'slow', delay_ms: 120_000 });
    const pending = call(sim, 'POST', '/v1/recweather', { key: DEMO_API_KEY, body: BERLIN });
    const outcome = pending.then(
      () => 'answered',
      () => 'failed',
    );
    await expect.poll(() => sim.stats().pendingFaults.length).toBe(0); // taken: the request is sleeping
    const started = performance.now();
    await sim.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await outcome).toBe('failed');
    expect(sim.stats().requests.map((r) => [r.status, r.fault])).toEqual([[null, 'slow']]);
  });

  it('is idempotent', async () => {
    const sim = await startServiceSim();
    await Promise.all([sim.close(), sim.close()]);
    await expect(sim.close()).resolves.toBeUndefined();
  });
});
