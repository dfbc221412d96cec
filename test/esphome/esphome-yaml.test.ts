import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEsphomeConfig, Lambda, parseEsphomeYaml, Secret } from './esphome-check.js';

/** The ready ESPHome configurations (config/esphome/): they parse, and use only keys ESPHome's sources accept. */

const DIR = path.resolve('config/esphome');
const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml'));
const load = (f: string) => parseEsphomeYaml(readFileSync(path.join(DIR, f), 'utf8'));
const text = (f: string) => readFileSync(path.join(DIR, f), 'utf8');

describe('config/esphome YAMLs', () => {
  it('are the four the docs name', () => {
    expect(files.sort()).toEqual([
      'reterminal-e1001.yaml',
      'waveshare-2in9.yaml',
      'waveshare-7in5-v2-battery.yaml',
      'waveshare-7in5-v2.yaml',
    ]);
  });

  it.each(files)('%s parses, with !secret and !lambda tags', (f) => {
    const cfg = load(f);
    expect((cfg.wifi as Record<string, unknown>).ssid).toBeInstanceOf(Secret);
    expect(((cfg.substitutions as Record<string, unknown>).outfit_url as Secret).name).toBe('outfit_display_url');
  });

  it.each(files)('%s uses only keys and value kinds ESPHome accepts', (f) => {
    expect(checkEsphomeConfig(load(f))).toEqual([]);
  });

  it.each(files)('%s names the ESPHome version it was written for', (f) => {
    expect(text(f)).toMatch(/Written against ESPHome 20\d\d\.\d+/);
  });

  it.each(files)('%s draws "on" (white) in the colour its driver shows white (the polarity trap)', (f) => {
    const cfg = load(f);
    const img = (cfg.online_image as Record<string, unknown>[])[0]!;
    const disp = (cfg.display as Record<string, unknown>[])[0]!;
    expect(img.type).toBe('BINARY');
    // epaper_spi shows COLOR_ON white, waveshare_epaper black (test/esphome/esphome-decode.ts cites the sources).
    const call = disp.platform === 'epaper_spi' ? 'COLOR_ON, COLOR_OFF' : 'COLOR_OFF, COLOR_ON';
    expect(String(disp.lambda).trim()).toBe(`it.image(0, 0, id(${String(img.id)}), ${call});`);
    // The URL asks for the format the decoder is told.
    expect(String(img.url)).toBe(`\${outfit_url}/displays/\${display_id}/frame.${String(img.format).toLowerCase()}`);
  });

  it('the battery variant reads the wake endpoint and sleeps what it says', () => {
    const cfg = load('waveshare-7in5-v2-battery.yaml');
    const boot = JSON.stringify((cfg.esphome as Record<string, unknown>).on_boot);
    expect(boot).toContain('/displays/${display_id}/sleep.txt');
    expect(boot).toContain('"capture_response":true');
    const img = (cfg.online_image as Record<string, unknown>[])[0]!;
    const enter = JSON.stringify(img.on_download_finished);
    expect(enter).toContain('deep_sleep.enter');
    const sleep = (img.on_download_finished as { then: Record<string, { sleep_duration?: unknown }>[] }).then[2]![
      'deep_sleep.enter'
    ]!.sleep_duration;
    expect(sleep).toBeInstanceOf(Lambda);
    expect((sleep as Lambda).code).toContain('id(sleep_s) * 1000');
  });

  it('the checker finds an unknown key, a missing required key and a wrong kind', () => {
    const cfg = load('waveshare-7in5-v2.yaml');
    const img = (cfg.online_image as Record<string, unknown>[])[0]!;
    delete img.format;
    img.colour = 'black';
    (cfg.display as Record<string, unknown>[])[0]!.full_update_every = 'often';
    expect(checkEsphomeConfig(cfg)).toEqual([
      'online_image[0].format: required',
      'online_image[0].colour: not a key of this component',
      'display[0].full_update_every: "often" is not a int',
    ]);
  });
});
