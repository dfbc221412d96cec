import type { BusyWait, EpdBus, ResetPulse } from './bus.js';

/**
 * The capture bus: in place of SPI and GPIO, what a logic analyser on the header would decode, one JSON object a
 * line. This format is a contract (docs/guides/panels.md, "A panel on the Pi"):
 *   {"op":"reset"}                                a reset pulse
 *   {"op":"cmd","cmd":N,"data":"<hex>"}            a command byte N and the data bytes that follow it (lower-case hex)
 *   {"op":"busy"}                                  a wait on BUSY (the vendor's status polls inside it aside)
 */
export type CaptureOp = { op: 'reset' } | { op: 'cmd'; cmd: number; data: string } | { op: 'busy' };

export interface CaptureBusOptions {
  /** Receives each line as it is sent (without its newline); default: kept in `ops` only. */
  write?: (line: string) => void;
  /** What BUSY does: a wait that answers false times out (for the timeout tests); default: always idle at once. */
  idle?: (wait: BusyWait) => boolean;
}

export class CaptureBus implements EpdBus {
  /** Every operation so far, in order. */
  readonly ops: CaptureOp[] = [];
  readonly #o: CaptureBusOptions;

  constructor(o: CaptureBusOptions = {}) {
    this.#o = o;
  }

  #emit(op: CaptureOp): void {
    this.ops.push(op);
    this.#o.write?.(JSON.stringify(op));
  }

  reset(_pulse: ResetPulse): Promise<void> {
    this.#emit({ op: 'reset' });
    return Promise.resolve();
  }

  command(cmd: number, data?: Uint8Array): Promise<void> {
    this.#emit({
      op: 'cmd',
      cmd,
      data: data === undefined ? '' : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('hex'),
    });
    return Promise.resolve();
  }

  async waitIdle(wait: BusyWait): Promise<void> {
    this.#emit({ op: 'busy' });
    if (this.#o.idle !== undefined && !this.#o.idle(wait)) {
      const { EpdError } = await import('./epd-error.js');
      throw new EpdError('E_PANEL_BUSY_TIMEOUT', `BUSY stayed ${wait.busyWhen} for ${wait.timeoutMs} ms (capture bus)`);
    }
  }

  delay(_ms: number): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Reads a capture file's text back; a line that is not an operation names its line number. */
export function parseCapture(text: string): CaptureOp[] {
  const out: CaptureOp[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const op = JSON.parse(line) as CaptureOp;
    if (
      op.op !== 'reset' &&
      op.op !== 'busy' &&
      !(op.op === 'cmd' && Number.isInteger(op.cmd) && typeof op.data === 'string' && /^([0-9a-f]{2})*$/.test(op.data))
    ) {
      throw new Error(`capture line ${i + 1}: not a reset, busy or cmd operation: ${line.slice(0, 80)}`);
    }
    out.push(op);
  });
  return out;
}
