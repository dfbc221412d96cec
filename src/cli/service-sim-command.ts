import { EXIT, type ExitCode } from '../shared/exit-codes.js';
import { BILLING_MODES, isBillingMode } from '../service-sim/billing.js';
import { DEMO_API_KEY, startServiceSim } from '../service-sim/server.js';
import { commandFlags } from './command-flags.js';
import { UsageError } from './usage-error.js';

const OPTIONS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  credits: { type: 'string' },
  'rate-limit': { type: 'string' },
  billing: { type: 'string' },
} as const;

/** `service-sim [--port N] [--host H] [--credits N] [--rate-limit N] [--billing MODE]`: until SIGTERM or SIGINT. */
export async function serviceSimCommand(argv: string[]): Promise<ExitCode> {
  const flags = commandFlags('service-sim', argv, OPTIONS);
  const port = flags.port === undefined ? 8780 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0..65535`);
  const credits = flags.credits === undefined ? 1_000_000 : Number(flags.credits);
  if (!Number.isInteger(credits) || credits < 0)
    throw new UsageError(`--credits must be a whole number >= 0 (got ${flags.credits})`);
  const rate = flags['rate-limit'] === undefined ? 60 : Number(flags['rate-limit']);
  if (!Number.isInteger(rate) || rate < 1)
    throw new UsageError(`--rate-limit must be a whole number >= 1 (got ${flags['rate-limit']})`);
  const billing = flags.billing ?? 'success';
  if (!isBillingMode(billing))
    throw new UsageError(`--billing must be one of ${BILLING_MODES.join(', ')} (got ${billing})`);
  const sim = await startServiceSim({
    host: flags.host ?? '127.0.0.1',
    port,
    keys: { [DEMO_API_KEY]: { credits } },
    ratePerMinute: rate,
    billing,
  });
  process.stdout.write(
    `simulated outfit service at ${sim.url}\ndemo API key: ${DEMO_API_KEY}\n` +
      `credits: ${credits}, rate limit: ${rate}/min, billing: ${billing}\n`,
  );
  return new Promise<ExitCode>((resolve) => {
    const stop = (): void => void sim.close().then(() => resolve(EXIT.OK));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}
