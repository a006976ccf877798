/**
 * Captured stdout/stderr of one run, capped at `maxBytes` together (UTF-8). The prelude caps its
 * own output too; this is the host's guard, so a patched prelude still cannot flood the host.
 */
// TextEncoder, not Buffer: this file also runs on the edge (src/edge/), where there is no Buffer
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class OutputBuffer {
  stdout = '';
  stderr = '';
  truncated = false;
  private bytes = 0;

  /** @param tap called with each piece of text kept (and the truncation marker), in order: a streaming run's output. */
  constructor(
    private readonly maxBytes: number,
    private readonly tap?: (stream: 'stdout' | 'stderr', text: string) => void,
  ) {}

  write(stream: 'stdout' | 'stderr', text: string): void {
    if (this.truncated) return;
    const size = encoder.encode(text).byteLength;
    if (this.bytes + size <= this.maxBytes) {
      this.bytes += size;
      this[stream] += text;
      this.tap?.(stream, text);
      return;
    }
    const room = Math.max(0, this.maxBytes - this.bytes);
    // at most `room` UTF-16 units can fit in `room` bytes: never copy the whole of a huge text
    const head = decoder.decode(encoder.encode(text.slice(0, room)).subarray(0, room)).replace(/\uFFFD$/, '');
    const kept = head + `\n… [output truncated: limit of ${this.maxBytes} bytes reached]\n`;
    this[stream] += kept;
    this.tap?.(stream, kept);
    this.bytes = this.maxBytes;
    this.truncated = true;
  }
}
