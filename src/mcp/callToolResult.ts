import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RunResult } from '../../schema/result.js';
import { budgetedText } from '../adapters/resultText.js';
import type { TextBudget } from '../sandbox/textBudget.js';
import { capStructured } from './capStructured.js';
import type { FileStore } from './fileStore.js';

/** Files up to this size come back embedded in the tool result; larger ones as resource links. */
export const MAX_EMBED_BYTES = 1024 * 1024;

/** Characters of JSON the structured result may take by default (a full table of award_data is ~650 KB). */
export const DEFAULT_MAX_STRUCTURED_CHARS = 256 * 1024;

const TEXTUAL = /^(text\/|application\/(json|x-ndjson)|image\/svg\+xml)/;

/** How a RunResult becomes a tool result: the text budget, the structured cap, where full results are kept. */
export interface ToolResultShape extends TextBudget {
  /** Characters of JSON `structuredContent` may take. @default 262144 */
  maxStructuredChars?: number;
  /** Keep the whole result (as JSON) as a resource, linked when the text or structured result was cut. */
  keepFull?: boolean;
}

/**
 * A RunResult as an MCP tool result: text for the model within its budget (resultText), the
 * RunResult as `structuredContent` within its cap (capStructured), `isError` when the run failed
 * (so the model fixes its code). Saved files (`result.files`) follow the text: each small file as
 * an embedded resource (text or base64 blob), each large one as a resource link; `files` in the
 * structured content carry the `uri` instead of bytes. Without a `store` files are listed only.
 * When something was cut and `keepFull` is set, the whole result is kept in the store and linked.
 */
export function toCallToolResult(result: RunResult, store?: FileStore, shape: ToolResultShape = {}): CallToolResult {
  const files = result.files?.length
    ? store
      ? store.keep(result.files)
      : result.files.map(({ bytes: _b, ...f }) => f)
    : undefined;
  const { text, cuts } = budgetedText(result, shape);
  const content: CallToolResult['content'] = [{ type: 'text', text }];
  for (const [i, f] of (files ?? []).entries()) {
    const uri = (f as { uri?: string }).uri;
    const bytes = result.files![i]!.bytes;
    if (!uri) continue;
    if (bytes && bytes.byteLength <= MAX_EMBED_BYTES) {
      content.push({
        type: 'resource',
        resource: TEXTUAL.test(f.mediaType)
          ? {
              uri,
              mimeType: f.mediaType,
              text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
            }
          : {
              uri,
              mimeType: f.mediaType,
              blob: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
            },
      });
    } else {
      content.push({
        type: 'resource_link',
        uri,
        name: f.name,
        mimeType: f.mediaType,
        description: `${f.size} bytes, saved by the run; read it as a resource`,
      });
    }
  }
  const full = files ? { ...result, files } : result;
  const capped = capStructured(full, shape.maxStructuredChars ?? DEFAULT_MAX_STRUCTURED_CHARS);
  if (store && shape.keepFull && (capped.cut?.length || cuts.length)) {
    const json = Buffer.from(JSON.stringify(full), 'utf8');
    const [kept] = store.keep([
      {
        name: 'result.json',
        mediaType: 'application/json',
        size: json.byteLength,
        bytes: new Uint8Array(json.buffer, json.byteOffset, json.byteLength),
      },
    ]);
    content.push({
      type: 'resource_link',
      uri: kept!.uri,
      name: 'result.json',
      mimeType: 'application/json',
      description: `The whole result (${json.byteLength} bytes of JSON), kept while the server has room; read it as a resource`,
    });
  }
  return {
    content,
    structuredContent: capped as unknown as Record<string, unknown>,
    ...(result.ok ? {} : { isError: true }),
  };
}

/** A host failure (not the guest's) as a tool error: what happened, without host paths or stacks. */
export function hostErrorResult(err: unknown): CallToolResult {
  const e = err as { code?: string; message?: string };
  const type = e.code === 'VALIDATION_ERROR' ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR';
  const message =
    type === 'VALIDATION_ERROR'
      ? String(e.message)
      : 'The server failed to run the code; retry, and if it keeps failing tell the user to check the server log.';
  return { content: [{ type: 'text', text: `error: ${type}: ${message}` }], isError: true };
}
