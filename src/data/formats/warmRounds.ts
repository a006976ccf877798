/**
 * Runs `decode` up to `rounds` times, yielding to the event loop before each round and stopping
 * as soon as `stop()` says a real job has arrived (it then waits at most one round). How a spare
 * decode worker lets V8 optimize a reader's loops on a small synthetic file while it waits.
 * @example await warmRounds(() => arrived, 8, () => decodeArrow('warm', bytes, 'w.arrow', caps));
 */
export async function warmRounds(stop: () => boolean, rounds: number, decode: () => unknown): Promise<void> {
  for (let r = 0; r < rounds && !stop(); r++) {
    await new Promise((resolve) => setImmediate(resolve));
    if (stop()) return;
    await decode();
  }
}
