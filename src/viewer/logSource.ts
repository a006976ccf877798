import { open, stat } from 'node:fs/promises';
import { CapsuleRecordSchema, type CapsuleRecord } from '../capsule/capsuleRecord.js';
import { SHOW_MAX_ROWS } from './renderTable.js';

/** One line of the log as the viewer sees it: a record, or why the line is not one. */
export interface LogEntry {
  /** 1-based line in the file (what `sbirtools replay --line` takes). */
  line: number;
  record?: CapsuleRecord;
  problem?: string;
}

/** Largest chunk read at once while catching up with the file. */
const CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * A capsule log read incrementally (tail -f style): `refresh()` reads only the bytes appended since
 * the last call and parses the complete lines; a line still being written waits for its newline.
 * Lines that are not records become entries with a `problem`, so one bad line never hides the rest.
 * A file that shrank (rotated or truncated) is read again from the start.
 * @example const log = new LogSource('runs.jsonl'); await log.refresh(); log.entries
 */
export class LogSource {
  /** Every entry so far, in file order. */
  entries: LogEntry[] = [];
  /** Bumped whenever the file was reset (shrank), so caches keyed by line can be dropped. */
  generation = 0;
  private offset = 0;
  private lineNo = 0;
  // the start of a line still waiting for its newline, as the chunks it came in (joined once, when
  // the newline arrives: joining on every chunk made a 90 MB line cost seconds)
  private pending: Buffer[] = [];
  private reading: Promise<boolean> | undefined;

  /** `keepAllRows`: keep every table row of a record (the full text of one run); pages keep only what they show. */
  constructor(
    readonly path: string,
    private readonly options: { keepAllRows?: boolean } = {},
  ) {}

  /** Read what was appended. Resolves true when entries changed. A missing file is an empty log. */
  refresh(): Promise<boolean> {
    // one read at a time: concurrent requests share it
    return (this.reading ??= this.read().finally(() => (this.reading = undefined)));
  }

  private async read(): Promise<boolean> {
    let size: number;
    try {
      size = (await stat(this.path)).size;
    } catch {
      size = 0;
    }
    let changed = false;
    if (size < this.offset) {
      this.entries = [];
      this.offset = this.lineNo = 0;
      this.pending = [];
      this.generation++;
      changed = true;
    }
    if (size === this.offset) return changed;
    const fh = await open(this.path, 'r');
    try {
      while (this.offset < size) {
        const buf = Buffer.alloc(Math.min(CHUNK_BYTES, size - this.offset));
        const { bytesRead } = await fh.read(buf, 0, buf.length, this.offset);
        if (bytesRead === 0) break;
        this.offset += bytesRead;
        changed = this.take(buf.subarray(0, bytesRead)) || changed;
      }
    } finally {
      await fh.close();
    }
    return changed;
  }

  private take(chunk: Buffer): boolean {
    let added = false;
    let start = 0;
    let nl: number;
    // only the new chunk is searched for newlines: the pending part has none
    while ((nl = chunk.indexOf(0x0a, start)) !== -1) {
      this.lineNo++;
      const piece = chunk.subarray(start, nl);
      const line = this.pending.length ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      start = nl + 1;
      const text = line.toString('utf8');
      if (text.trim() === '') continue;
      this.entries.push(parseLine(text, this.lineNo, this.options.keepAllRows === true));
      added = true;
    }
    if (start < chunk.length) this.pending.push(Buffer.from(chunk.subarray(start)));
    return added;
  }
}

/**
 * Table rows past what a page shows are dropped before validation (the shape, `totalRows`, stays):
 * a crafted record with a million rows then costs a JSON.parse, not a million-row schema check.
 */
function keepShownRows(json: unknown): unknown {
  const outputs = (json as { outputs?: { table?: unknown; displays?: unknown } } | null)?.outputs;
  if (!outputs || typeof outputs !== 'object') return json;
  const cut = (t: unknown) => {
    const table = t as { rows?: unknown; truncated?: unknown } | null;
    if (table && Array.isArray(table.rows) && table.rows.length > SHOW_MAX_ROWS) {
      table.rows = table.rows.slice(0, SHOW_MAX_ROWS);
      table.truncated = true;
    }
  };
  cut(outputs.table);
  if (Array.isArray(outputs.displays)) outputs.displays.forEach(cut);
  return json;
}

function parseLine(text: string, line: number, keepAllRows: boolean): LogEntry {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { line, problem: `Line ${line} is not valid JSON; a capsule log has one JSON record per line.` };
  }
  const parsed = CapsuleRecordSchema.safeParse(keepAllRows ? json : keepShownRows(json));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      line,
      problem: `Line ${line} is not a capsule record (${issue?.path.join('.') || 'record'}: ${issue?.message}).`,
    };
  }
  return { line, record: parsed.data };
}
