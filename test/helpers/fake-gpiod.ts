/**
 * A stand-in for node-libgpiod (libgpiod 1.x), for the header this machine lacks: one chip with the Pi 4's label, its
 * lines' levels set by the test (each line held high by its pull-up until the test presses it), every request and
 * release recorded, and a failing line as the kernel fails it (an errno code).
 */

export interface FakeGpiod {
  /** What `import('node-libgpiod')` gives: pass `importer` where the code takes one. */
  importer: (lib: string) => Promise<unknown>;
  /** Every line taken: its pin, consumer and request flags. */
  requests: Array<{ pin: number; consumer: string; flags: number }>;
  /** The pins released, in order. */
  released: number[];
  /** Sets a line's level (0: pressed). */
  set(pin: number, level: 0 | 1): void;
  /** A request of this pin fails with this errno code (EBUSY, EACCES, EINVAL). */
  failOn(pin: number, code: string): void;
  /** Every further read of a line fails (the chip gone). */
  breakReads(): void;
}

export function fakeGpiod(chipLabel = 'pinctrl-bcm2711'): FakeGpiod {
  const levels = new Map<number, 0 | 1>();
  const failing = new Map<number, string>();
  let readsBroken = false;
  const fake: FakeGpiod = {
    importer: (lib) =>
      lib === 'node-libgpiod' ? Promise.resolve(gpiod) : Promise.reject(new Error(`no ${lib} in the fake`)),
    requests: [],
    released: [],
    set: (pin, level) => void levels.set(pin, level),
    failOn: (pin, code) => void failing.set(pin, code),
    breakReads: () => void (readsBroken = true),
  };
  class Chip {
    readonly label = chipLabel;
    constructor(readonly name: string) {}
  }
  class Line {
    constructor(
      readonly chip: Chip,
      readonly pin: number,
    ) {}
    requestInputModeFlags(consumer: string, flags: number): void {
      const code = failing.get(this.pin);
      if (code !== undefined) throw Object.assign(new Error(`request line ${this.pin}: ${code}`), { code });
      fake.requests.push({ pin: this.pin, consumer, flags });
    }
    getValue(): 0 | 1 {
      if (readsBroken) throw Object.assign(new Error('read line: ENODEV'), { code: 'ENODEV' });
      return levels.get(this.pin) ?? 1;
    }
    release(): void {
      fake.released.push(this.pin);
    }
  }
  const gpiod = { getChipNames: () => ['gpiochip0'], Chip, Line };
  return fake;
}
