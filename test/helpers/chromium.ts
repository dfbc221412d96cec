import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium-args.js';

/**
 * Debian's headless Chromium driven by playwright-core (never a downloaded browser), in a fresh profile folder.
 * close() ends the browser and removes the profile.
 */

export { CHROMIUM, CHROMIUM_ARGS };

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Chromium> {
  const profile = await mkdtemp(path.join(tmpdir(), 'outfit-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 60_000,
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      await rm(profile, { recursive: true, force: true });
    },
  };
}
