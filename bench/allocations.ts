/**
 * Bytes a piece of synchronous code allocates on the heap, garbage included: V8's sampling heap
 * profiler (node:inspector) with the objects the collector has since freed kept in the profile. It
 * samples about every SAMPLING_INTERVAL bytes and scales each sample to an estimate of the bytes it
 * stands for, so a figure per call is an average over many calls, good to a few percent; a heap
 * snapshot would count exactly but only what is still alive.
 */
import { Session } from 'node:inspector/promises';

/** Bytes between samples, on average: small, so a 16-byte number boxed per call is seen. */
const SAMPLING_INTERVAL = 64;

interface ProfileNode {
  readonly selfSize: number;
  readonly children: readonly ProfileNode[];
}

function totalSize(root: ProfileNode): number {
  let total = 0;
  const stack: ProfileNode[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    total += node.selfSize;
    for (const child of node.children) stack.push(child);
  }
  return total;
}

/** The bytes `fn` allocated while it ran (an estimate, see above). */
export async function allocatedBytes(fn: () => void): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: SAMPLING_INTERVAL,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    fn();
    const { profile } = await session.post('HeapProfiler.stopSampling');
    return totalSize(profile.head as ProfileNode);
  } finally {
    session.disconnect();
  }
}
