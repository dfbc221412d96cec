import { describe, expect, it } from 'vitest';
import { MqttFrameLimit } from '../../src/mqtt/frame-limit.js';
import { mqttHeader as header, mqttPacket as packet } from '../helpers/mqtt-bytes.js';

/** Feeds the bytes one at a time (the worst split) and collects what passes, or the error. */
async function feed(
  guard: MqttFrameLimit,
  bytes: Buffer,
): Promise<{ passed: Buffer; error: { code?: string } | null }> {
  const out: Buffer[] = [];
  guard.on('data', (c: Buffer) => out.push(c));
  let error: { code?: string } | null = null;
  guard.on('error', (e) => (error = e as { code?: string }));
  for (const b of bytes) {
    if (guard.destroyed) break;
    guard.write(Buffer.from([b]));
  }
  await new Promise((r) => setImmediate(r));
  return { passed: Buffer.concat(out), error };
}

describe('MqttFrameLimit', () => {
  it('passes packets within the limit unchanged, whatever the chunking, once opened', async () => {
    const guard = new MqttFrameLimit({ connectLimit: 100, peer: 'test' });
    guard.open(300);
    const bytes = Buffer.concat([packet(0x10, 20), packet(0x30, 200), packet(0xc0, 0), packet(0x30, 300)]);
    const { passed, error } = await feed(guard, bytes);
    expect(error).toBeNull();
    expect(passed.equals(bytes)).toBe(true);
  });

  it('holds everything after CONNECT until open(), then applies the role’s limit', async () => {
    const guard = new MqttFrameLimit({ connectLimit: 100, peer: 'test' });
    const connect = packet(0x10, 30);
    const out: Buffer[] = [];
    guard.on('data', (c: Buffer) => out.push(c));
    guard.write(Buffer.concat([connect, packet(0x30, 50)]));
    await expect.poll(() => Buffer.concat(out).length).toBe(connect.length);
    guard.open(1000);
    await expect.poll(() => Buffer.concat(out).length).toBe(connect.length + 52);
  });

  it('refuses a packet on its length bytes, before its body arrives (E_MQTT_TOO_LARGE)', async () => {
    const guard = new MqttFrameLimit({ connectLimit: 100, peer: 'test' });
    guard.open(64 * 1024);
    const { passed, error } = await feed(guard, Buffer.concat([packet(0x10, 10), header(0x30, 200 * 1024 * 1024)]));
    expect(error).toMatchObject({ code: 'E_MQTT_TOO_LARGE' });
    // CONNECT, then at most the header bytes of the big one: none of its body.
    expect(passed.length).toBeLessThanOrEqual(12 + 5);
  });

  it('refuses a length of more than four bytes (E_MQTT_MALFORMED)', async () => {
    const guard = new MqttFrameLimit({ connectLimit: 2 ** 30, peer: 'test' });
    const { error } = await feed(guard, Buffer.from([0x10, 0x80, 0x80, 0x80, 0x80, 0x01]));
    expect(error).toMatchObject({ code: 'E_MQTT_MALFORMED' });
  });
});
