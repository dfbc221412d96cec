import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { PNG } from 'pngjs';
import { parseCapture } from '../../src/epd/capture-bus.js';
import type { PanelProfile } from '../../src/panels/panels.js';
import { rotatePixels, type Rotation } from '../../src/render/encode/rotate.js';
import { controllerModel, type ControllerModel } from '../controllers/index.js';
import type { FetchOutcome, Transport } from './transport.js';

/**
 * `simulate --via panel`: the glass of a panel attached to the daemon's header, with nothing attached. The daemon
 * writes the command stream to the display's `attached.capture` file; at each wake this reads what was appended
 * since, feeds it to the panel's controller model (display/controllers) and, when the model refreshed, hands its
 * glass to the device as the picture (turned as the display is mounted). What the live view shows is then exactly
 * what the daemon's driver would have put on real glass.
 */

export interface PanelTransportOptions {
  /** The display's `attached.capture` file. */
  file: string;
  panel: PanelProfile;
  rotation: Rotation;
}

export class PanelTransport implements Transport {
  readonly via = 'panel' as const;
  readonly #o: PanelTransportOptions;
  readonly #model: ControllerModel;
  #offset = 0;
  /** A line the daemon had not finished writing at the last read. */
  #partial = '';
  #shown = 0;
  #broken: string | null = null;

  constructor(o: PanelTransportOptions) {
    this.#o = o;
    this.#model = controllerModel(o.panel.id);
  }

  #readNew(): string {
    const size = statSync(this.#o.file).size;
    // A capture file started anew (the daemon's owner deleted it): the model starts anew too.
    if (size < this.#offset) this.#offset = 0;
    if (size === this.#offset) return '';
    const buf = Buffer.alloc(size - this.#offset);
    const fd = openSync(this.#o.file, 'r');
    try {
      readSync(fd, buf, 0, buf.length, this.#offset);
    } finally {
      closeSync(fd);
    }
    this.#offset = size;
    return buf.toString('utf8');
  }

  fetch(): Promise<FetchOutcome> {
    if (this.#broken !== null)
      return Promise.resolve({ kind: 'error', code: 'PANEL_PROTOCOL', message: this.#broken, refreshRateS: null });
    let text: string;
    try {
      text = this.#partial + this.#readNew();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return Promise.resolve({
        kind: 'nothing',
        refreshRateS: null,
        note: `no capture yet (${this.#o.file}: ${code ?? (err as Error).message})`,
      });
    }
    const end = text.lastIndexOf('\n') + 1;
    this.#partial = text.slice(end);
    try {
      for (const op of parseCapture(text.slice(0, end))) this.#model.apply(op);
    } catch (err) {
      // The stream broke a rule the controller enforces: the real panel would be stuck too, until a restart.
      this.#broken = `${(err as { code?: string }).code ?? 'E_PANEL_PROTOCOL'}: ${(err as Error).message}`;
      return Promise.resolve({ kind: 'error', code: 'PANEL_PROTOCOL', message: this.#broken, refreshRateS: null });
    }
    if (this.#model.refreshes === this.#shown)
      return Promise.resolve({
        kind: 'unchanged',
        refreshRateS: null,
        note: 'no refresh in the capture since the last wake',
      });
    this.#shown = this.#model.refreshes;
    return Promise.resolve({
      kind: 'image',
      bytes: this.#png(),
      contentType: 'image/png',
      filename: null,
      downloaded: true,
      refreshRateS: null,
      note: `refresh ${this.#shown} of the attached panel`,
    });
  }

  /** The model's glass as an RGBA PNG of the palette's colours, turned as the display is mounted. */
  #png(): Buffer {
    const { panel, rotation } = this.#o;
    const turned = rotatePixels(this.#model.glass(), panel.width, panel.height, rotation);
    const png = new PNG({ width: turned.width, height: turned.height });
    const rgb = panel.palette.map((e) => [1, 3, 5].map((i) => parseInt(e.rgb.slice(i, i + 2), 16)));
    turned.pixels.forEach((v, i) => {
      const c = rgb[v] ?? [255, 255, 255];
      png.data.set([c[0]!, c[1]!, c[2]!, 255], i * 4);
    });
    return PNG.sync.write(png);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
