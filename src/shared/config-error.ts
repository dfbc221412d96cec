import type { ErrorCode } from './codes.js';

/**
 * E_CONFIG: what config/load.ts throws for a config file, and logging.ts for a bad OUTFIT_LOG_FORMAT. Here, below
 * both, because the config imports the logger (the Supervisor's broker password is a log secret) and the logger
 * would otherwise import the config.
 */

/** Every problem found in a config file, each "key.path: message". Thrown whole, never one at a time. */
export class ConfigError extends Error {
  readonly code = 'E_CONFIG' satisfies ErrorCode;
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}
