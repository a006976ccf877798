// Runs cells of one session through the library's SessionStore (what the MCP server uses) with
// capsule outputs on: node sessionRuns.mjs <log> <sessionId> <cells.json>
import { readFileSync } from 'node:fs';
const [, , log, sessionId, cellsFile] = process.argv;
const root = new URL('../../../', import.meta.url);
const { createSessionStore, shutdown } = await import(new URL('dist/src/index.js', root).href);
const store = createSessionStore({ capsuleLog: log, capsuleOutputs: true, deterministic: true });
for (const code of JSON.parse(readFileSync(cellsFile, 'utf8'))) await store.run(code, { sessionId });
await store.close();
await shutdown();
