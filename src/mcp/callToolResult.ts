import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RunResult } from '../../schema/result.js';
import { resultText } from '../adapters/resultText.js';
import type { FileStore } from './fileStore.js';

/** Files up to this size come back embedded in the tool result; larger ones as resource links. */
export const MAX_EMBED_BYTES = 1024 * 1024;

const TEXTUAL = /^(text\/|application\/(json|x-ndjson)|image\/svg\+xml)/;

/**
 * A RunResult as an MCP tool result: readable text for the model, the whole RunResult as
 * `structuredContent` for programs, `isError` when the run failed (so the model fixes its code).
 * Saved files (`result.files`) follow the text: each small file as an embedded resource (text or
 * base64 blob), each large one as a resource link the client reads later; `files` in the
 * structured content carry the `uri` instead of bytes. Without a `store` files are listed only.
 */
export function toCallToolResult(result: RunResult, store?: FileStore): CallToolResult {
  const files = result.files?.length ? (store ? store.keep(result.files) : result.files.map(({ bytes: _b, ...f }) => f)) : undefined;
  const content: CallToolResult['content'] = [{ type: 'text', text: resultText(result) }];
  for (const [i, f] of (files ?? []).entries()) {
    const uri = (f as { uri?: string }).uri;
    const bytes = result.files![i]!.bytes;
    if (!uri) continue;
    if (bytes && bytes.byteLength <= MAX_EMBED_BYTES) {
      content.push({
        type: 'resource',
        resource: TEXTUAL.test(f.mediaType)
          ? { uri, mimeType: f.mediaType, text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') }
          : { uri, mimeType: f.mediaType, blob: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') },
      });
    } else {
      content.push({ type: 'resource_link', uri, name: f.name, mimeType: f.mediaType, description: `${f.size} bytes, saved by the run; read it as a resource` });
    }
  }
  const structured = files ? { ...result, files } : result;
  return {
    content,
    structuredContent: structured as unknown as Record<string, unknown>,
    ...(result.ok ? {} : { isError: true }),
  };
}

/** A host failure (not the guest's) as a tool error: what happened, without host paths or stacks. */
export function hostErrorResult(err: unknown): CallToolResult {
  const e = err as { code?: string; message?: string };
  const type = e.code === 'VALIDATION_ERROR' ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR';
  const message = type === 'VALIDATION_ERROR' ? String(e.message) : 'The server failed to run the code; retry, and if it keeps failing tell the user to check the server log.';
  return { content: [{ type: 'text', text: `error: ${type}: ${message}` }], isError: true };
}
