/**
 * Captured stdout/stderr of one run, capped at `maxBytes` together (UTF-8). The prelude caps its
 * own output too; this is the host's guard, so a patched prelude still cannot flood the host.
 */
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
    const size = Buffer.byteLength(text, 'utf8');
    if (this.bytes + size <= this.maxBytes) {
      this.bytes += size;
      this[stream] += text;
      this.tap?.(stream, text);
      return;
    }
    const room = Math.max(0, this.maxBytes - this.bytes);
    // at most `room` UTF-16 units can fit in `room` bytes: never copy the whole of a huge text
    const head = Buffer.from(text.slice(0, room), 'utf8').subarray(0, room).toString('utf8').replace(/\uFFFD$/, '');
    const kept = head + `\n… [output truncated: limit of ${this.maxBytes} bytes reached]\n`;
    this[stream] += kept;
    this.tap?.(stream, kept);
    this.bytes = this.maxBytes;
    this.truncated = true;
  }
}
