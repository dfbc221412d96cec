import { measureIdle } from './dist/test/bench/idle-daemon.js';
const node = process.argv[2];
const r = await measureIdle({ displays: 1, settleS: 10, windowS: 15, node });
console.log(node.slice(-30), (r.rssKb/1024).toFixed(1), 'MB idle; hwm', (r.hwmKb/1024).toFixed(1));
process.exit(0);
