import { spawnSync } from 'node:child_process';

/**
 * The Node majors the project supports (package.json `engines`, CI's .ci/run), each as a node binary the benches can
 * start their processes with: the running Node for its own major, the others from the npm registry's "node"
 * package through npx (cached after the first run; canvas is a Node-API addon, so the one build serves them all).
 * A major npx cannot fetch (no registry) is reported as missing, and its lines are left out.
 */

export const SUPPORTED_MAJORS = [20, 22, 24, 26] as const;

/** The cold `render` ratio targeted on each major (the browser's time / ours): 4x on Node 22 and later, 3x on 20. */
export const COLD_RATIO_TARGET: Partial<Record<number, number>> = { 20: 3, 22: 4, 24: 4, 26: 4 };

export interface NodeBinary {
  major: number;
  /** e.g. v26.10.0 */
  version: string;
  execPath: string;
}

export interface NodeMajors {
  nodes: NodeBinary[];
  /** "Node 22: why", for each major without a binary. */
  missing: string[];
}

const runningMajor = Number(process.versions.node.split('.')[0]);

/** One node binary of each supported major; `majors` narrows the list (`--node 20,26`). */
export function nodeMajors(majors: readonly number[] = SUPPORTED_MAJORS): NodeMajors {
  const nodes: NodeBinary[] = [];
  const missing: string[] = [];
  for (const major of majors) {
    if (major === runningMajor) {
      nodes.push({ major, version: process.version, execPath: process.execPath });
      continue;
    }
    // npx prints the binary's own path: the processes are then started without npx in between.
    const r = spawnSync('npx', ['-y', `node@${major}`, '-p', 'process.version + " " + process.execPath'], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    const m = r.status === 0 ? /^(v(\d+)\.\S+) (\S+)\s*$/m.exec(r.stdout) : null;
    if (m && Number(m[2]) === major) nodes.push({ major, version: m[1]!, execPath: m[3]! });
    else
      missing.push(
        `Node ${major}: npx -y node@${major} failed (${(r.stderr || r.error?.message || '').trim().split('\n').pop() ?? ''})`,
      );
  }
  return { nodes, missing };
}
