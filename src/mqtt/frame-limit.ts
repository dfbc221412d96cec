import { Transform, type TransformCallback } from 'node:stream';
import { BrokerRefusal } from './broker/refusal.js';

/**
 * Sits between a client's socket and the embedded broker and reads only MQTT's fixed headers (a type byte and the
 * "remaining length", 1–4 bytes): a packet that declares more bytes than its limit fails the stream before its body
 * is buffered, because aedes' parser (mqtt-packet) collects a whole packet in memory whatever its size. The bytes
 * pass through unchanged.
 *
 * The first packet (CONNECT) has `connectLimit`; nothing after it passes until `open()` gives the limit of the
 * client's role, once the login is checked. So the limit in force is always the one of who the client turned out to be.
 */

export interface MqttFrameLimitOptions {
  /** Largest remaining length of the first packet, CONNECT (client id, login, will). */
  connectLimit: number;
  /** Names the client in the error: e.g. its address. */
  peer: string;
}

/** A byte of the remaining length with this bit set is followed by another; at most 4 bytes. */
const CONTINUATION = 0x80;
const MAX_LENGTH_BYTES = 4;

type Phase = 'type' | 'length' | 'body';

export class MqttFrameLimit extends Transform {
  readonly #peer: string;
  #limit: number;
  #open = false;
  #packets = 0;
  #phase: Phase = 'type';
  #length = 0;
  #multiplier = 1;
  #lengthBytes = 0;
  #left = 0;
  /** The rest of a chunk that arrived after CONNECT, before open(): its callback is the backpressure. */
  #held: { chunk: Buffer; callback: TransformCallback } | null = null;

  constructor(opts: MqttFrameLimitOptions) {
    super();
    this.#limit = opts.connectLimit;
    this.#peer = opts.peer;
  }

  /** The largest remaining length allowed now. */
  get limit(): number {
    return this.#limit;
  }

  /** After the login: the packets after CONNECT may pass, each at most `limit` bytes after its fixed header. */
  open(limit: number): void {
    this.#limit = limit;
    this.#open = true;
    const held = this.#held;
    this.#held = null;
    if (held && !this.destroyed) this.#process(held.chunk, held.callback);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#process(chunk, callback);
  }

  #process(chunk: Buffer, callback: TransformCallback): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.#phase === 'type') {
        if (this.#packets > 0 && !this.#open) {
          if (i > 0) this.push(chunk.subarray(0, i));
          this.#held = { chunk: chunk.subarray(i), callback };
          return;
        }
        i += 1;
        this.#phase = 'length';
        this.#length = 0;
        this.#multiplier = 1;
        this.#lengthBytes = 0;
        continue;
      }
      if (this.#phase === 'length') {
        const byte = chunk[i]!;
        i += 1;
        this.#length += (byte & ~CONTINUATION) * this.#multiplier;
        this.#multiplier *= 128;
        this.#lengthBytes += 1;
        if (byte & CONTINUATION) {
          if (this.#lengthBytes >= MAX_LENGTH_BYTES) {
            callback(
              new BrokerRefusal('E_MQTT_MALFORMED', `MQTT client ${this.#peer}: a packet length longer than 4 bytes`),
            );
            return;
          }
          // Refused as soon as the bytes so far already exceed the limit: no need to wait for the rest.
          if (this.#length > this.#limit) break;
          continue;
        }
        if (this.#length > this.#limit) break;
        this.#packets += 1;
        this.#left = this.#length;
        this.#phase = this.#left === 0 ? 'type' : 'body';
        continue;
      }
      const n = Math.min(this.#left, chunk.length - i);
      i += n;
      this.#left -= n;
      if (this.#left === 0) this.#phase = 'type';
    }
    if (this.#phase === 'length' && this.#length > this.#limit) {
      callback(
        new BrokerRefusal(
          'E_MQTT_TOO_LARGE',
          `MQTT client ${this.#peer}: a packet of ${this.#length} bytes or more; at most ${this.#limit} are accepted`,
        ),
      );
      return;
    }
    callback(null, chunk);
  }
}
