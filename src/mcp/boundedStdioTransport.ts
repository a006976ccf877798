import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPCMessageSchema } from '../vendor/mcpSdk.js';

/** JSON-RPC's "Invalid Request" code, used for a message over the size cap. */
const INVALID_REQUEST = -32600;

/**
 * MCP over stdio with a cap on each message that answers, never dies: a line longer than
 * `maxMessageBytes` is skipped up to its newline while it streams in (its bytes are not kept) and
 * answered with a JSON-RPC error carrying the request's id when its first bytes show one, so the
 * client's call fails with a reason and the server keeps serving. (The SDK's StdioServerTransport
 * closes the connection on such a message and copies its whole buffer on every chunk.)
 * @example await server.connect(new BoundedStdioTransport(40 * 1024 * 1024));
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Parts of the current line, and their total size. */
  private parts: Buffer[] = [];
  private size = 0;
  /** Set while an over-cap line is being skipped: its first bytes (for the id) and its size. */
  private skipping: { head: Buffer; bytes: number } | undefined;
  private started = false;
  private closed = false;

  constructor(
    readonly maxMessageBytes: number,
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
  ) {}

  private readonly ondata = (chunk: Buffer | string): void => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (buf.length) {
      const nl = buf.indexOf(0x0a);
      const piece = nl < 0 ? buf : buf.subarray(0, nl);
      this.take(piece);
      if (nl < 0) break;
      this.endLine();
      buf = buf.subarray(nl + 1);
    }
  };

  private readonly onstreamerror = (error: Error): void => this.onerror?.(error);

  async start(): Promise<void> {
    if (this.started) throw new Error('BoundedStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.ondata);
    this.stdin.on('error', this.onstreamerror);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.ondata);
    this.stdin.off('error', this.onstreamerror);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.parts = [];
    this.onclose?.();
  }

  private take(piece: Buffer): void {
    if (this.skipping) {
      this.skipping.bytes += piece.length;
      return;
    }
    if (this.size + piece.length > this.maxMessageBytes) {
      const head = Buffer.concat([...this.parts, piece]).subarray(0, 256);
      this.skipping = { head: Buffer.from(head), bytes: this.size + piece.length };
      this.parts = [];
      this.size = 0;
      return;
    }
    if (piece.length) {
      this.parts.push(Buffer.from(piece));
      this.size += piece.length;
    }
  }

  private endLine(): void {
    if (this.skipping) {
      const { head, bytes } = this.skipping;
      this.skipping = undefined;
      this.refuse(head, bytes);
      return;
    }
    const line = Buffer.concat(this.parts, this.size).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (!line.trim()) return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line)) as JSONRPCMessage;
    } catch (err) {
      this.onerror?.(err as Error);
      return;
    }
    this.onmessage?.(message);
  }

  /** Answer an over-cap message: with its id when its head shows one (a request), else only log it. */
  private refuse(head: Buffer, bytes: number): void {
    const text = `A message of ${bytes} bytes is over this server's ${this.maxMessageBytes}-byte limit per message; it was not read. For add_table, send a smaller file (filter or aggregate it, or use Parquet), or start the server with a larger --max-upload-bytes.`;
    this.onerror?.(new Error(text));
    const id = /"id"\s*:\s*("(?:[^"\\]|\\.){0,128}"|-?\d{1,20})/.exec(head.toString('latin1'))?.[1];
    if (id === undefined) return;
    void this.send({
      jsonrpc: '2.0',
      id: JSON.parse(id) as string | number,
      error: { code: INVALID_REQUEST, message: text },
    } as JSONRPCMessage);
  }
}
