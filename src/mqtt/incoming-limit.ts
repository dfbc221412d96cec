import { Transform, type TransformCallback } from 'node:stream';

/**
 * Sits between the daemon's socket to a broker and mqtt.js's parser (mqtt-packet), which collects a whole packet in
 * memory whatever its size and has no limit of its own: reads only MQTT's fixed headers (a type byte and the
 * "remaining length", 1–4 bytes). A PUBLISH that declares more than `limit` bytes is skipped: its bytes are counted
 * off as they arrive and never reach the parser, so it costs no memory and the connection stays up (a retained one
 * would otherwise drop it again at every reconnect). Any other packet over the limit is no packet a broker sends us:
 * the stream fails, and the connection is made again. Everything else passes unchanged.
 *
 * MQTT 5's Maximum Packet Size would make the broker drop such messages itself; the daemon speaks MQTT 3.1.1, which
 * has no such property, so the limit is kept here.
 */

export interface MqttIncomingLimitOptions {
  /** Largest remaining length of a packet from the broker, in bytes. */
  limit: number;
  /** Called once for each PUBLISH skipped, with the bytes it declared, as soon as its header is read. */
  onSkip: (bytes: number) => void;
}

/** A byte of the remaining length with this bit set is followed by another; at most 4 bytes. */
const CONTINUATION = 0x80;
const MAX_LENGTH_BYTES = 4;
/** The packet type in the high nibble of the first byte. */
const PUBLISH = 3;

export class MqttIncomingLimit extends Transform {
  readonly #limit: number;
  readonly #onSkip: (bytes: number) => void;
  /** The fixed header read so far (type byte and length bytes): held back until the packet is known to pass. */
  #header: number[] = [];
  #length = 0;
  #multiplier = 1;
  /** Body bytes still to come of the current packet; `#skipping` says whether they pass or are dropped. */
  #left = 0;
  #skipping = false;

  constructor(opts: MqttIncomingLimitOptions) {
    super();
    this.#limit = opts.limit;
    this.#onSkip = opts.onSkip;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const out: Buffer[] = [];
    let i = 0;
    while (i < chunk.length) {
      if (this.#left > 0) {
        const n = Math.min(this.#left, chunk.length - i);
        if (!this.#skipping) out.push(chunk.subarray(i, i + n));
        i += n;
        this.#left -= n;
        continue;
      }
      const byte = chunk[i]!;
      i += 1;
      this.#header.push(byte);
      if (this.#header.length === 1) {
        this.#length = 0;
        this.#multiplier = 1;
        continue;
      }
      this.#length += (byte & ~CONTINUATION) * this.#multiplier;
      this.#multiplier *= 128;
      if (byte & CONTINUATION) {
        if (this.#header.length > MAX_LENGTH_BYTES) {
          callback(
            Object.assign(new Error('the broker sent a packet length longer than 4 bytes'), {
              code: 'E_MQTT_MALFORMED',
            }),
          );
          return;
        }
        continue;
      }
      const type = this.#header[0]! >> 4;
      if (this.#length > this.#limit) {
        if (type !== PUBLISH) {
          callback(
            Object.assign(
              new Error(`the broker sent a packet of ${this.#length} bytes; at most ${this.#limit} are taken`),
              { code: 'E_MQTT_TOO_LARGE' },
            ),
          );
          return;
        }
        this.#skipping = true;
        this.#onSkip(this.#length);
      } else {
        this.#skipping = false;
        out.push(Buffer.from(this.#header));
      }
      this.#header = [];
      this.#left = this.#length;
    }
    callback(null, out.length === 0 ? undefined : out.length === 1 ? out[0] : Buffer.concat(out));
  }
}

/** The part of a stream from mqtt.js's stream builders that is used here. */
interface BuiltStream {
  pipe<T extends NodeJS.WritableStream>(dest: T, opts?: { end?: boolean }): T;
  destroy(err?: Error): unknown;
}
type Builder = (client: unknown, opts?: unknown) => BuiltStream;

/**
 * Puts an MqttIncomingLimit before the parser of every connection `client` makes (the first and each reconnect). Call
 * it on a client made with `manualConnect: true`, before its connect(). mqtt.js has no option for this: its stream
 * builder (a private field in its types, set by mqtt.connect from the URL's protocol) is wrapped, and the stream it
 * builds is read through the limit by the one `pipe` mqtt.js makes of it into its parser. Throws when the builder is
 * not where mqtt.js 5 keeps it, so that an upgrade that moves it fails at the first start, not silently.
 */
export function limitIncoming(client: object, opts: MqttIncomingLimitOptions): void {
  const holder = client as { streamBuilder?: Builder };
  const build = holder.streamBuilder;
  if (typeof build !== 'function')
    throw new Error(
      'mqtt.js keeps no stream builder where this version expects it: the incoming packet limit cannot be set',
    );
  holder.streamBuilder = (c, o) => {
    const stream = build(c, o);
    const pipe = stream.pipe.bind(stream);
    stream.pipe = <T extends NodeJS.WritableStream>(dest: T, pipeOpts?: { end?: boolean }): T => {
      const guard = new MqttIncomingLimit(opts);
      // A packet no broker sends (or a malformed length): as if the connection broke; it is made again.
      guard.on('error', (err) => stream.destroy(err));
      return pipe(guard).pipe(dest, pipeOpts);
    };
    return stream;
  };
}
