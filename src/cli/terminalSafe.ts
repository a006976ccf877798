/**
 * C0 and C1 control characters except tab and line feed, DEL, and the Unicode bidirectional
 * controls (which can make a terminal show text in another order than it is): what can reach a
 * terminal as a command (clear the screen, set the title, move the cursor) or disguise a line.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escape(c: string): string {
  const code = c.charCodeAt(0);
  if (c === '\r') return '\\r';
  if (c === '\n') return '\\n';
  if (c === '\t') return '\\t';
  if (code === 0x1b) return '\\e';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Text from a file, a log, the network or guest code made safe to print on a terminal: every
 * control character (ESC, CR, BEL, backspace, C1, bidirectional overrides...) is shown as an
 * escape (`\e`, `\r`, `\x07`, `\u202e`); tab and line feed are kept unless `oneLine`, which also
 * escapes them (for a name inside a one-line message). Printable text is unchanged.
 * @example terminalSafe('a\u001b]0;pwned\u0007b') // 'a\\e]0;pwned\\x07b'
 */
export function terminalSafe(text: string, oneLine = false): string {
  return text.replace(oneLine ? UNSAFE_IN_LINE : UNSAFE, escape);
}

/**
 * A stream that escapes control characters on the way to a terminal (see {@link terminalSafe}),
 * or the stream itself when `raw` (a pipe, a file, or `--raw`).
 */
export function safeWriter(stream: NodeJS.WritableStream, raw: boolean): NodeJS.WritableStream {
  if (raw) return stream;
  return {
    write: (chunk: string | Uint8Array) =>
      stream.write(terminalSafe(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))),
  } as unknown as NodeJS.WritableStream;
}

// C1 controls, DEL, bidirectional controls and the two Unicode line breaks: JSON.stringify already
// escapes C0 controls, and these are valid as `\uXXXX` escapes inside a JSON string
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/**
 * JSON text with the characters a terminal could act on written as `\uXXXX` escapes: the same
 * JSON value, safe to print (`--json` output).
 * @example jsonTerminalSafe(JSON.stringify({ s: '\u009b2J' })) // '{"s":"\\u009b2J"}'
 */
export function jsonTerminalSafe(json: string): string {
  return json.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
