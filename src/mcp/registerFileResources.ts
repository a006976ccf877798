import type { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { FileStore } from './fileStore.js';

/** Register `sbirtools://files/{run}/{name}`: the files runs saved, readable as resources (binary as base64 blobs). */
export function registerFileResources(server: McpServer, files: FileStore, Template: typeof ResourceTemplate): void {
  server.registerResource(
    'run-files',
    new Template('sbirtools://files/{run}/{name}', {
      list: async () => ({ resources: files.list().map((f) => ({ uri: f.uri, name: f.name, mimeType: f.mediaType })) }),
    }),
    { title: 'Files saved by runs', description: 'Files from to_csv, to_parquet, to_arrow, to_json and save_chart.' },
    async (uri) => {
      const f = files.get(uri.href);
      if (!f)
        return {
          contents: [
            {
              uri: uri.href,
              mimeType: 'text/plain',
              text: 'This file is no longer kept (older files are dropped when the store is full); run the code again.',
            },
          ],
        };
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: f.mediaType,
            blob: Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength).toString('base64'),
          },
        ],
      };
    },
  );
}
