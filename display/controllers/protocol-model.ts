import type { CaptureOp } from '../../src/epd/capture-bus.js';
import { EpdError } from '../../src/epd/epd-error.js';

/**
 * What every controller model does with the capture before a command means anything to its chip: it counts the ops
 * (a refusal names the op's place in the stream), takes a reset pulse and a wait on BUSY, and refuses, with
 * E_PANEL_PROTOCOL and a stable reason, what no controller takes: a command (or data) in deep sleep before a reset,
 * while BUSY, data with no command since the reset, a command it does not know or with more (or fewer) data bytes
 * than it takes, and, where the chip says so, a command before the first reset. The models (uc8179.ts, ssd168x.ts,
 * colour-controller.ts) extend it with their registers, RAM and glass.
 */

/**
 * A capture op, or a run of data bytes on its own (`{"op":"data"}`), which a logic analyser shows when DC is high with
 * no command byte before it. The capture bus never writes one; the models take it so that a hand-made stream can
 * show the refusal.
 */
export type ModelOp = CaptureOp | { op: 'data'; data: string };

/** The reasons the intake itself gives; each model's list of reasons holds them. */
export type IntakeReason =
  | 'data-before-command'
  | 'command-while-busy'
  | 'command-after-deep-sleep'
  | 'unknown-command'
  | 'command-before-reset';

/** What a controller model refused: E_PANEL_PROTOCOL, the reason, and the operation's place in the stream. */
export class PanelProtocolError<R extends string = string> extends EpdError {
  constructor(
    /** The controller, for the message. */
    chip: string,
    readonly reason: R,
    /** The 0-based index of the refused operation in the stream. */
    readonly opIndex: number,
    message: string,
  ) {
    super('E_PANEL_PROTOCOL', `${chip} model: op ${opIndex}: ${message} (${reason})`);
  }
}

/** One controller's commands: how many data bytes each takes, [fewest, most], and its name for messages. */
export type CommandTable = ReadonlyMap<number, { name?: string; bytes: readonly [number, number] }>;

export interface ProtocolRules<R extends string> {
  /** The controller's name, for messages. */
  chip: string;
  /** The commands the model knows. */
  commands: CommandTable;
  /** The commands whose data is RAM: a further run of data bytes continues them. */
  ramCommands: readonly number[];
  /** Commands the chip takes while BUSY (a status read), if any. */
  takenWhileBusy?: readonly number[];
  /** The reason for more data bytes than a command takes, and for data after a command that took its own. */
  tooManyBytes: R;
  /** The reason for fewer data bytes than a command takes; none: a short write sets only the first parameters. */
  tooFewBytes?: R;
  /** Whether a command before the first reset pulse is refused (the chip's state is unknown until one). */
  resetFirst?: boolean;
  /** Called with the new glass after each refresh (the simulator's live view). */
  onRefresh?: ((glass: Uint8Array) => void) | undefined;
}

export abstract class ProtocolModel<R extends string> {
  readonly #rules: ProtocolRules<R>;
  #index = -1;
  #wasReset = false;
  #busy = false;
  #deepSleep = false;
  /** The last command since the reset, which a further run of data bytes belongs to. */
  #lastCmd: number | undefined;
  #refreshes = 0;

  constructor(rules: ProtocolRules<R>) {
    this.#rules = rules;
  }

  /** The glass: palette indices of the profile, rows of its width (white before the first refresh). */
  abstract glass(): Uint8Array;

  /** Refreshes so far. */
  get refreshes(): number {
    return this.#refreshes;
  }

  /** True from a command that keeps the chip busy (power on/off, refresh, software reset) until the next `{"op":"busy"}` or a reset. */
  get busy(): boolean {
    return this.#busy;
  }

  /** True from the deep-sleep command until a reset pulse. */
  get deepSleep(): boolean {
    return this.#deepSleep;
  }

  applyAll(ops: Iterable<ModelOp>): void {
    for (const op of ops) this.apply(op);
  }

  apply(op: ModelOp): void {
    this.#index++;
    if (op.op === 'reset') {
      // A hardware reset ends deep sleep and whatever the chip was doing; the model sets its registers back.
      this.#wasReset = true;
      this.#busy = false;
      this.#deepSleep = false;
      this.#lastCmd = undefined;
      return this.onReset();
    }
    if (op.op === 'busy') {
      this.#busy = false;
      return;
    }
    const r = this.#rules;
    const data = Buffer.from(op.data, 'hex');
    const what = op.op === 'cmd' ? this.commandName(op.cmd) : `${data.length} data bytes`;
    if (op.op === 'cmd' && r.resetFirst === true && !this.#wasReset)
      this.refuse('command-before-reset', `${what} before any reset pulse; reset the chip first`);
    if (this.#deepSleep)
      this.refuse('command-after-deep-sleep', `${what} in deep sleep; only a reset pulse wakes the chip`);
    if (this.#busy && !(op.op === 'cmd' && r.takenWhileBusy?.includes(op.cmd) === true)) {
      this.refuse('command-while-busy', `${what} while BUSY; wait for BUSY after power on/off, a reset and a refresh`);
    }
    if (op.op === 'data') {
      // DC high with no command byte since the reset: the chip has nothing to give the bytes to.
      if (this.#lastCmd === undefined) this.refuse('data-before-command', `${what} with no command since the reset`);
      // A further run for a RAM write continues it; any other command took all its bytes with it.
      if (!r.ramCommands.includes(this.#lastCmd))
        this.refuse(r.tooManyBytes, `${what} after ${this.commandName(this.#lastCmd)}, which took its own`);
      return this.moreRam(this.#lastCmd, data);
    }
    const known = r.commands.get(op.cmd);
    if (known === undefined) this.refuse('unknown-command', `${what} is not a ${r.chip} command the model knows`);
    const [fewest, most] = known.bytes;
    if (data.length > most)
      this.refuse(r.tooManyBytes, `${what} takes at most ${most} data bytes, ${data.length} followed it`);
    if (data.length < fewest && r.tooFewBytes !== undefined)
      this.refuse(r.tooFewBytes, `${what} takes at least ${fewest} data bytes, ${data.length} followed it`);
    this.#lastCmd = op.cmd;
    this.command(op.cmd, data, what);
  }

  /** A reset pulse: the model's registers back to their reset values (the intake has ended BUSY and deep sleep). */
  protected abstract onReset(): void;

  /** A command the intake took, its data bytes in range. `name` says it in messages. */
  protected abstract command(cmd: number, data: Buffer, name: string): void;

  /** A further run of data bytes for the RAM write `cmd` began. */
  protected abstract moreRam(cmd: number, data: Buffer): void;

  /** BUSY held (by the chip) until the next wait on it. */
  protected holdBusy(): void {
    this.#busy = true;
  }

  /** The chip in deep sleep: only a reset pulse wakes it. */
  protected enterDeepSleep(): void {
    this.#deepSleep = true;
  }

  /** A refresh done: counted, and the new glass to `onRefresh`. */
  protected refreshed(): void {
    this.#refreshes++;
    this.#rules.onRefresh?.(this.glass());
  }

  protected commandName(cmd: number): string {
    const name = this.#rules.commands.get(cmd)?.name;
    return `command 0x${cmd.toString(16).padStart(2, '0')}${name === undefined ? '' : ` (${name})`}`;
  }

  protected refuse(reason: R | IntakeReason, message: string): never {
    throw new PanelProtocolError(this.#rules.chip, reason, this.#index, message);
  }
}
