/**
 * Captured stdout/stderr: every write goes to the host immediately (bridge.write, so output survives
 * a timeout), counted in UTF-8 bytes against maxOutputBytes for stdout + stderr together. At the cap
 * the text is cut, a visible marker line is written once, and later writes are dropped.
 */
import { utf8Length } from '../polyfills/utf8.js';

/** The host's write callback. */
export type Write = (stream: 'stdout' | 'stderr', text: string) => void;

const state = { write: null as Write | null, limit: Infinity, bytes: 0, truncated: false };

/** Installs the host writer (once, at boot). */
export function setWriter(write: Write): void {
  state.write = write;
}

/** Resets the byte counter for a new run. */
export function resetOutput(limitBytes: number): void {
  state.limit = limitBytes;
  state.bytes = 0;
  state.truncated = false;
}

/** Bytes this run wrote to stdout and stderr so far. */
export function outputBytes(): number {
  return state.bytes;
}

/** True when this run's output hit the cap. */
export function outputTruncated(): boolean {
  return state.truncated;
}

/** Cuts `s` to at most `maxBytes` UTF-8 bytes, never inside a surrogate pair. */
export function cutToBytes(s: string, maxBytes: number): string {
  let bytes = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const w = c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? 4 : 3;
    if (bytes + w > maxBytes) break;
    bytes += w;
    if (w === 4) i++;
  }
  return s.slice(0, i);
}

/** Writes text to a stream, enforcing the output cap. */
export function emit(stream: 'stdout' | 'stderr', text: string): void {
  if (state.truncated || !state.write) return;
  const n = utf8Length(text);
  if (state.bytes + n <= state.limit) {
    state.bytes += n;
    state.write(stream, text);
    return;
  }
  const head = cutToBytes(text, state.limit - state.bytes);
  state.bytes = state.limit;
  state.truncated = true;
  const marker = `${head && !head.endsWith('\n') ? '\n' : ''}… [output truncated: limit of ${state.limit} bytes reached]\n`;
  state.write(stream, head + marker);
}
