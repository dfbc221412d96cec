import { describe, expect, it } from 'vitest';
import { MqttIncomingLimit } from '../../src/mqtt/incoming-limit.js';
import { mqttPacket as packet } from '../helpers/mqtt-bytes.js';

describe('MqttIncomingLimit', () => {
  async function feed(
    bytes: Buffer,
    limit: number,
    step: number,
  ): Promise<{ passed: Buffer; skipped: number[]; error: { code?: string } | null }> {
    const skipped: number[] = [];
    const guard = new MqttIncomingLimit({ limit, onSkip: (n) => skipped.push(n) });
    const out: Buffer[] = [];
    let error: { code?: string } | null = null;
    guard.on('data', (c: Buffer) => out.push(c));
    guard.on('error', (e) => (error = e as { code?: string }));
    for (let i = 0; i < bytes.length && !guard.destroyed; i += step) guard.write(bytes.subarray(i, i + step));
    await new Promise((r) => setImmediate(r));
    return { passed: Buffer.concat(out), skipped, error };
  }

  it('passes packets within the limit unchanged and drops a PUBLISH over it whole, whatever the chunking', async () => {
    const small = [packet(0x20, 2), packet(0x30, 300), packet(0xd0, 0), packet(0x32, 1000)];
    const big = packet(0x30, 70_000, 9);
    const bytes = Buffer.concat([small[0]!, small[1]!, big, small[2]!, small[3]!]);
    for (const step of [1, 3, 4096, bytes.length]) {
      const { passed, skipped, error } = await feed(bytes, 1000, step);
      expect(error).toBeNull();
      expect(skipped).toEqual([70_000]);
      expect(passed.equals(Buffer.concat(small))).toBe(true);
    }
  });

  it('fails the stream on any other packet over the limit, or a length of more than 4 bytes', async () => {
    expect((await feed(packet(0x90, 5000), 1000, 1)).error).toMatchObject({ code: 'E_MQTT_TOO_LARGE' });
    expect((await feed(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]), 1000, 1)).error).toMatchObject({
      code: 'E_MQTT_MALFORMED',
    });
  });
});
