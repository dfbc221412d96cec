import { formatPlan } from '../budget/plan-format.js';
import { overBudget, planConfig } from '../budget/planner.js';
import { EXIT, type ExitCode } from '../shared/exit-codes.js';
import { commandFlags } from './command-flags.js';
import { loadCommandConfig } from './load-command-config.js';

const OPTIONS = {
  config: { type: 'string', short: 'c' },
} as const;

/** `plan --config F`: calls and credits per day and month against the budget; exit 1 when over it. */
export async function planCommand(argv: string[]): Promise<ExitCode> {
  const flags = commandFlags('plan', argv, OPTIONS);
  const { config } = await loadCommandConfig('plan', flags.config);
  const report = planConfig(config);
  process.stdout.write(`${formatPlan(report)}\n`);
  return overBudget(report) ? EXIT.FAILURE : EXIT.OK;
}
