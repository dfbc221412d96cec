/**
 * How much this process's memory grew at its peak while `fn` ran: RSS (sampled every few ms, and the kernel's own
 * peak, whichever says more) and V8's heap with the buffers outside it. For a test that a peer's answer of hundreds
 * of MB is not held: a part that read it whole would show it here.
 */

export interface MemoryPeak<T> {
  value: T;
  /** Peak RSS over the RSS before, in MB. */
  rssMb: number;
  /** Peak heap used plus external memory (Buffers) over the same before, in MB. */
  heapMb: number;
}

const MB = 1024 * 1024;

export async function memoryPeak<T>(fn: () => Promise<T>): Promise<MemoryPeak<T>> {
  const before = process.memoryUsage();
  const maxRssBefore = process.resourceUsage().maxRSS * 1024;
  let rss = before.rss;
  let heap = before.heapUsed + before.external;
  const sample = (): void => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed + m.external);
  };
  const timer = setInterval(sample, 2);
  try {
    const value = await fn();
    sample();
    // The kernel's peak counts only when it passed the peak before (else it says nothing of this run).
    const kernelPeak = process.resourceUsage().maxRSS * 1024;
    const rssGrowth = Math.max(rss - before.rss, kernelPeak > maxRssBefore ? kernelPeak - before.rss : 0);
    return { value, rssMb: rssGrowth / MB, heapMb: (heap - before.heapUsed - before.external) / MB };
  } finally {
    clearInterval(timer);
  }
}
