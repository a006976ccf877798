import type { McpServer, RegisteredTool, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ColumnarTable } from '../../schema/columnar.js';
import type { SessionStore, TableSchema } from '../adapters/sessionStore.js';
import { DataError } from '../sandbox/dataset.js';
import { resolveDataSource } from '../sandbox/dataset.js';
import { tableFromCsv } from '../sandbox/tables.js';
import { loadTable, type TableSource } from '../sandbox/tables.js';
import { TABLE_FORMATS } from '../sandbox/tables.js';
import { DEFAULT_TABLE_DOWNLOAD_DEADLINE_MS, type TableDownloadOptions } from '../sandbox/tables.js';
import { checkTableName } from '../sandbox/tableName.js';
import { tableSchemaLine } from './tableSchema.js';

/** The add_table tool's name. */
export const ADD_TABLE_TOOL_NAME = 'add_table';

/** Largest upload add_table accepts by default (decoded bytes). */
export const DEFAULT_MAX_UPLOAD_BYTES = 32 * 1024 * 1024;

const InputSchema = z.object({
  name: z
    .string()
    .describe(
      "The table's name in run_analysis: a JavaScript identifier that is not a helper (not award_data, aq, print...).",
    ),
  content_base64: z.string().optional().describe('The file, base64-encoded (Parquet, Arrow IPC, CSV, JSON or NDJSON).'),
  content_text: z.string().optional().describe('The file as text (CSV, JSON or NDJSON).'),
  url: z.string().optional().describe('An http(s) URL the server downloads (cached, size-capped).'),
  format: z.enum(TABLE_FORMATS).optional().describe('The format, when the bytes or name do not make it clear.'),
});

/**
 * Register `add_table` and the `sbirtools://tables/{name}` resources: a client uploads a table
 * (base64 or text, within `maxUploadBytes`) or names a URL; it is decoded once (Parquet/Arrow/JSON
 * in a worker thread), checked, added to every run from then on, listed as a resource with its
 * schema, and its schema is appended to run_analysis's description.
 */
export function registerTableTools(
  server: McpServer,
  Template: typeof ResourceTemplate,
  deps: {
    sessions: SessionStore;
    runTool: RegisteredTool;
    description: string;
    startTables?: string[];
    maxUploadBytes: number;
    cacheDir?: string;
    allowUrls?: boolean;
    allowPrivateUrls?: boolean;
    downloadDeadlineMs?: number;
    onError: (err: unknown) => void;
  },
): void {
  // tables added earlier through the same store (serve: the API key's tables, on any replica)
  const tables = new Map<string, TableSchema>(deps.sessions.tableSchemas().map((t) => [t.name, t]));
  const describe = () => {
    const lines = [
      ...(deps.startTables ?? []).filter((l) => !tables.has(l.slice(0, l.indexOf(' ')))),
      ...[...tables.values()].map(tableSchemaLine),
    ].map((l) => `- ${l}`);
    return lines.length
      ? `${deps.description}\n\nYour tables (globals, also in \`tables\`; join them with merge(t, award_data, { on })):\n${lines.join('\n')}`
      : deps.description;
  };
  if (deps.startTables?.length || tables.size) deps.runTool.update({ description: describe() });
  server.registerTool(
    ADD_TABLE_TOOL_NAME,
    {
      title: 'Add a table for run_analysis',
      description: `Add a table (Parquet, Arrow IPC, CSV, JSON or NDJSON) that run_analysis code can use by its name, e.g. to join a portfolio with award_data. Give exactly one of content_base64, content_text or url; at most ${deps.maxUploadBytes} bytes. Sessions opened earlier restart on their next run (their variables are lost).`,
      inputSchema: InputSchema.shape,
      // destructive: a table of the same name is replaced, and sessions that ran code start over;
      // idempotent: the same upload again leaves the same tables
      annotations: {
        title: 'Add a table for run_analysis',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: deps.allowUrls !== false,
      },
    },
    async (input) => {
      try {
        // the name first: nothing is downloaded or decoded for a table that could not be bound
        checkTableName(input.name, 'add_table');
        if (input.url !== undefined && deps.allowUrls !== true) {
          throw new DataError(
            'DOWNLOAD_BAD_URL',
            'this server does not download tables from URLs a model names (sbirtools mcp and sbirtools serve refuse them unless started with --allow-table-urls)',
            { hint: 'Send the file itself in content_base64 or content_text.' },
          );
        }
        // a URL the model names: public addresses only (unless the operator allows private ones), and
        // the whole transfer bounded
        const download = {
          destinations: deps.allowPrivateUrls ? ('any' as const) : ('public' as const),
          deadlineMs: deps.downloadDeadlineMs ?? DEFAULT_TABLE_DOWNLOAD_DEADLINE_MS,
        };
        const table = await load(input, deps.maxUploadBytes, deps.cacheDir, download);
        await deps.sessions.addTable(input.name, table);
        tables.set(input.name, table);
        deps.runTool.update({ description: describe() });
        server.sendResourceListChanged();
        const text = `Added table ${tableSchemaLine(table)}.\nUse it as \`${input.name}\` in run_analysis, e.g. merge(${input.name}, award_data, { on: '<column>' }); describeData('${input.name}') gives its data card. Resource: sbirtools://tables/${input.name}`;
        return {
          content: [{ type: 'text', text }],
          structuredContent: {
            name: input.name,
            rows: table.numRows,
            columns: table.columns.map(({ name, type }) => ({ name, type })),
          },
        };
      } catch (err) {
        const e = err as { code?: string; message?: string; hint?: string };
        if (!(err instanceof DataError) && e.code !== 'VALIDATION_ERROR') deps.onError(err);
        const known = err instanceof DataError || e.code === 'VALIDATION_ERROR';
        const message = known
          ? `${e.code}: ${e.message}${e.hint ? `\nhint: ${e.hint}` : ''}`
          : 'INTERNAL_ERROR: the table could not be added; check the server log.';
        return { content: [{ type: 'text', text: `error: ${message}` }], isError: true };
      }
    },
  );
  server.registerResource(
    'tables',
    new Template('sbirtools://tables/{name}', {
      list: async () => ({
        resources: [...tables.values()].map((t) => ({
          uri: `sbirtools://tables/${t.name}`,
          name: t.name,
          mimeType: 'text/markdown',
          description: `${t.numRows} rows, ${t.columns.length} columns`,
        })),
      }),
    }),
    { title: 'Added tables', description: 'Schema of each table added with add_table.', mimeType: 'text/markdown' },
    async (uri, vars) => {
      const t = tables.get(String(vars.name));
      const text = t
        ? `# ${t.name}\n\n${t.numRows} rows\n\n| column | type |\n| --- | --- |\n${t.columns.map((c) => `| ${c.name} | ${c.type} |`).join('\n')}\n`
        : `No table named ${String(vars.name)}.`;
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
    },
  );
}

async function load(
  input: z.infer<typeof InputSchema>,
  maxBytes: number,
  cacheDir: string | undefined,
  download: TableDownloadOptions,
): Promise<ColumnarTable> {
  const given = [input.content_base64, input.content_text, input.url].filter((x) => x !== undefined).length;
  if (given !== 1)
    throw new DataError(
      'DATA_NOT_FOUND',
      `add_table needs exactly one of content_base64, content_text or url (got ${given})`,
      { hint: 'Send the file base64-encoded in content_base64, or text in content_text, or give a url.' },
    );
  let source: TableSource;
  if (input.url !== undefined) source = { url: input.url, ...(input.format ? { format: input.format } : {}) };
  else {
    // check the size before decoding: base64 is 4 characters per 3 bytes
    const approx =
      input.content_base64 !== undefined
        ? Math.floor((input.content_base64.length * 3) / 4)
        : Buffer.byteLength(input.content_text!, 'utf8');
    if (approx > maxBytes)
      throw new DataError(
        'DATA_TOO_LARGE',
        `the upload is about ${approx} bytes, over the ${maxBytes}-byte limit of add_table`,
        {
          hint: 'Send fewer rows or columns (filter or aggregate first), use Parquet (smaller than CSV), or give a url.',
        },
      );
    const bytes =
      input.content_base64 !== undefined
        ? Buffer.from(input.content_base64, 'base64')
        : Buffer.from(input.content_text!, 'utf8');
    source = {
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      ...(input.format ? { format: input.format } : {}),
    };
  }
  const dir = resolveDataSource({ ...(cacheDir ? { cacheDir } : {}), env: process.env }).cacheDir;
  const loaded = await loadTable(input.name, source, { cacheDir: dir, caps: { maxInputBytes: maxBytes }, download });
  return loaded.kind === 'columnar' ? loaded.table : await tableFromCsv(input.name, loaded.path);
}
