import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { DataCardView } from '../adapters/description.js';
import { packageInfo } from '../capsule/packageInfo.js';

/** URIs of the resources the server offers. */
export const RESOURCE_URIS = {
  dataCard: 'sbirtools://dataset/card.md',
  dataCardJson: 'sbirtools://dataset/card.json',
  prelude: 'sbirtools://docs/prelude.md',
} as const;

/** Register the data card (Markdown and JSON) and, when docs/prelude.md ships, the prelude reference. */
export function registerResources(server: McpServer, card: () => Promise<DataCardView>): void {
  server.registerResource(
    'data-card',
    RESOURCE_URIS.dataCard,
    {
      title: 'award_data data card',
      description: 'Source, rows, columns, types and meanings of award_data.',
      mimeType: 'text/markdown',
    },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: (await card()).markdown }] }),
  );
  server.registerResource(
    'data-card-json',
    RESOURCE_URIS.dataCardJson,
    { title: 'award_data data card (JSON)', description: 'The data card as JSON.', mimeType: 'application/json' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify((await card()).json, null, 2) }],
    }),
  );
  const prelude = join(packageInfo().root, 'docs', 'prelude.md');
  if (existsSync(prelude)) {
    server.registerResource(
      'prelude-reference',
      RESOURCE_URIS.prelude,
      {
        title: 'Prelude reference',
        description: 'Every helper available inside run_analysis (print, value_counts, groupby, charts...).',
        mimeType: 'text/markdown',
      },
      async (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await readFile(prelude, 'utf8') }],
      }),
    );
  }
}
