import { loadConfig, type LoadedConfig } from '../config/load.js';
import { need } from './usage-error.js';

/** The config named by --config, each of its warnings said on stderr. */
export async function loadCommandConfig(command: string, file: string | undefined): Promise<LoadedConfig> {
  const loaded = await loadConfig(need(file, '--config F', command));
  for (const w of loaded.warnings) process.stderr.write(`warning: ${w}\n`);
  return loaded;
}
