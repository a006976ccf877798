import { describe, expect, it } from 'vitest';
import { createHandler } from '../../../src/adapters/handler.js';
import { toToolOutput } from '../../../src/adapters/toolOutput.js';
import { resultText } from '../../../src/adapters/resultText.js';
import { run } from '../../../src/index.js';

describe('saved files on JSON surfaces', () => {
  it('the HTTP handler sends a file as base64, never as JSON numbers', async () => {
    const handler = createHandler();
    const res = await handler(
      new Request('http://x/', {
        method: 'POST',
        body: JSON.stringify({ code: "to_csv(aq.table({ a: [1, 2] }), 'a.csv'); 1" }),
        headers: { 'content-type': 'application/json' },
      }),
    );
    const body = (await res.json()) as {
      files: Array<{ name: string; size: number; base64?: string; bytes?: unknown }>;
    };
    expect(body.files).toEqual([
      { name: 'a.csv', mediaType: 'text/csv', size: 6, base64: Buffer.from('a\n1\n2\n').toString('base64') },
    ]);
  });

  it('tool outputs and the MCP text name the files', async () => {
    const r = await run("to_parquet(aq.table({ a: [1] }), 'x'); 1");
    expect(toToolOutput(r).files).toEqual([`x.parquet (application/vnd.apache.parquet, ${r.files![0]!.size} bytes)`]);
    expect(resultText(r)).toMatch(/files: x\.parquet \(application\/vnd\.apache\.parquet, \d+ bytes\)/);
  });
});
