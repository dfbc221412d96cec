import { EpdError } from './epd-error.js';

/**
 * What went wrong opening or driving the real bus, as an EpdError whose message names the fix. Kept apart from the
 * bus itself so that every mapping is checked without a Pi (the errno codes are what the kernel gives on one).
 */

const ENABLE_SPI =
  'enable SPI: add dtparam=spi=on to /boot/firmware/config.txt (or run `sudo raspi-config nonint do_spi 0`) and reboot';
const GROUPS =
  'add the user the daemon runs as to the spi and gpio groups (`sudo usermod -aG spi,gpio USER`, then log in again); the systemd unit has them as SupplementaryGroups';

/** The SPI device could not be opened (or configured). */
export function spiOpenError(device: string, err: unknown): EpdError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENODEV' || code === 'ENXIO') {
    return new EpdError('E_PANEL_BUS', `no SPI device ${device}: SPI is not enabled; ${ENABLE_SPI}`, { cause: err });
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new EpdError('E_PANEL_PERMISSION', `may not open ${device} (${code}): ${GROUPS}`, { cause: err });
  }
  if (code === 'EBUSY') {
    return new EpdError(
      'E_PANEL_PIN_BUSY',
      `${device} is in use by another program (${code}): stop it (another panel script?) and try again`,
      { cause: err },
    );
  }
  return new EpdError(
    'E_PANEL_BUS',
    `cannot use ${device} (${code ?? (err as Error).message}): is it an SPI device (/dev/spidevB.D)?`,
    { cause: err },
  );
}

/** The GPIO chip could not be opened. */
export function gpioChipError(chip: string, err: unknown): EpdError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') {
    return new EpdError('E_PANEL_PERMISSION', `may not open the GPIO chip ${chip} (${code}): ${GROUPS}`, {
      cause: err,
    });
  }
  return new EpdError(
    'E_PANEL_BUS',
    `cannot open the GPIO chip ${chip} (${code ?? (err as Error).message}): set attached.gpio_chip to one of \`gpiodetect\`'s chips`,
    { cause: err },
  );
}

/** A line of the chip could not be taken; `setting` is the config key that moves it. */
export function gpioLineError(role: string, pin: number, err: unknown, setting = `attached.pins.${role}`): EpdError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EBUSY') {
    // The Inky's CS is held by the SPI driver until Pimoroni's overlay frees it; any other pin by what gpioinfo names.
    const overlay = role === 'cs' ? "for the Inky's CS add dtoverlay=spi0-0cs to config.txt, or " : '';
    return new EpdError(
      'E_PANEL_PIN_BUSY',
      `GPIO ${pin} (${role}) is in use by another program or overlay: \`gpioinfo\` shows its consumer; stop it, or ${overlay}set ${setting}`,
      { cause: err },
    );
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new EpdError('E_PANEL_PERMISSION', `may not take GPIO ${pin} (${role}) (${code}): ${GROUPS}`, {
      cause: err,
    });
  }
  if (code === 'EINVAL') {
    return new EpdError(
      'E_PANEL_BUS',
      `GPIO ${pin} (${role}) is not a line of this chip: check ${setting} (BCM numbers)`,
      { cause: err },
    );
  }
  return new EpdError('E_PANEL_BUS', `cannot take GPIO ${pin} (${role}) (${code ?? (err as Error).message})`, {
    cause: err,
  });
}

/** No chip with the Pi header's label. */
export function noHeaderChip(seen: readonly string[]): EpdError {
  const list = seen.length === 0 ? 'no GPIO chip at all (/dev/gpiochip*)' : `chips ${seen.join(', ')}`;
  return new EpdError(
    'E_PANEL_BUS',
    `no GPIO chip of the Pi's header found (${list}): on a Pi this is pinctrl-bcm2835/bcm2711/rp1; elsewhere set attached.gpio_chip to the chip's label or path`,
  );
}

/** An optional bus library is not installed (or not built for this Node). */
export function libraryMissing(lib: string, err: unknown): EpdError {
  if (builtForAnotherNode(err)) {
    return new EpdError(
      'E_PANEL_BUS',
      `the optional library ${lib} was built for another Node.js than this one (${process.version}): run \`npm rebuild ${lib}\` in the install folder`,
      { cause: err },
    );
  }
  const gpiod =
    lib === 'node-libgpiod' ? ' (it builds against libgpiod 1.x: `sudo apt-get install libgpiod-dev` first)' : '';
  return new EpdError(
    'E_PANEL_BUS',
    `the optional library ${lib} is not installed or did not build${gpiod}: run \`npm install ${lib}\` in the install folder (build-essential and python3 are needed), or use attached.capture to write the bus to a file`,
    { cause: err },
  );
}

/**
 * A native addon compiled against another Node's ABI (Node was upgraded after the install): these libraries use nan,
 * not Node-API, so one build serves one Node major. `npm rebuild` mends it.
 */
export function builtForAnotherNode(err: unknown): boolean {
  return /NODE_MODULE_VERSION|compiled against a different Node\.js version/.test(
    String((err as Error | undefined)?.message ?? err),
  );
}

/** BUSY stayed busy: the vendor refresh time has passed many times over. */
export function busyTimeout(pin: number, level: string, ms: number): EpdError {
  return new EpdError(
    'E_PANEL_BUSY_TIMEOUT',
    `BUSY (GPIO ${pin}) stayed ${level} for ${ms} ms: check the ribbon cable and the HAT's seating, that attached.board and attached.pins.busy match the board, and that the panel setting is this panel's`,
  );
}
