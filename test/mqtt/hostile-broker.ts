import { createServer, type Server, type Socket } from 'node:net';

/**
 * A broker that takes the connection and never answers a SUBSCRIBE: a raw TCP server on 127.0.0.1 that reads MQTT
 * packets off the socket and answers CONNECT (CONNACK accepted), a QoS 1 PUBLISH (PUBACK) and PINGREQ (PINGRESP),
 * and swallows everything else. What the outside probe's hostile broker did. With `answerSubscribeFrom: n` it comes
 * round at the n-th SUBSCRIBE (1-based) and grants it and every later one.
 */

export interface HostileBrokerOptions {
  /** The first SUBSCRIBE that gets its SUBACK; default never. */
  answerSubscribeFrom?: number;
}

export interface HostileBroker {
  readonly url: string;
  readonly port: number;
  /** Packets received, by MQTT packet type name ('connect', 'subscribe', 'publish', …). */
  received(type: string): number;
  /** Connections accepted so far, and of those how many have closed. */
  readonly connections: number;
  readonly closed: number;
  close(): Promise<void>;
}

const TYPES = [
  '',
  'connect',
  'connack',
  'publish',
  'puback',
  'pubrec',
  'pubrel',
  'pubcomp',
  'subscribe',
  'suback',
  'unsubscribe',
  'unsuback',
  'pingreq',
  'pingresp',
  'disconnect',
  'auth',
];

/** Each complete packet in `buf` from `at`: its first byte, its body and where the next begins; null if incomplete. */
function nextPacket(buf: Buffer, at: number): { first: number; body: Buffer; end: number } | null {
  let len = 0;
  let mul = 1;
  let i = at + 1;
  for (;;) {
    if (i >= buf.length) return null;
    const b = buf[i++]!;
    len += (b & 0x7f) * mul;
    mul *= 128;
    if ((b & 0x80) === 0) break;
  }
  if (i + len > buf.length) return null;
  return { first: buf[at]!, body: buf.subarray(i, i + len), end: i + len };
}

/** A SUBACK granting QoS 1 to every filter of this SUBSCRIBE body (packet id, then length-prefixed filter and QoS). */
function suback(body: Buffer): Buffer {
  let n = 0;
  for (let i = 2; i + 2 <= body.length; i += 2 + body.readUInt16BE(i) + 1) n += 1;
  return Buffer.concat([Buffer.from([0x90, 2 + n]), body.subarray(0, 2), Buffer.alloc(n, 1)]);
}

export async function startHostileBroker(opts: HostileBrokerOptions = {}): Promise<HostileBroker> {
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  let connections = 0;
  let closed = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => {
      closed += 1;
      sockets.delete(socket);
    });
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      let at = 0;
      for (let p = nextPacket(pending, at); p !== null; p = nextPacket(pending, at)) {
        at = p.end;
        const type = TYPES[p.first >> 4] ?? '?';
        counts.set(type, (counts.get(type) ?? 0) + 1);
        if (type === 'connect') socket.write(Buffer.from([0x20, 0x02, 0x00, 0x00]));
        if (type === 'subscribe' && counts.get(type)! >= (opts.answerSubscribeFrom ?? Infinity))
          socket.write(suback(p.body));
        if (type === 'pingreq') socket.write(Buffer.from([0xd0, 0x00]));
        if (type === 'publish' && ((p.first >> 1) & 3) === 1) {
          // The packet id follows the topic (2-byte length, then the topic).
          const idAt = 2 + p.body.readUInt16BE(0);
          socket.write(Buffer.concat([Buffer.from([0x40, 0x02]), p.body.subarray(idAt, idAt + 2)]));
        }
      }
      pending = pending.subarray(at);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    received: (type) => counts.get(type) ?? 0,
    get connections() {
      return connections;
    },
    get closed() {
      return closed;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
