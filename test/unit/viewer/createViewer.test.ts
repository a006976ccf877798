import { appendFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createViewer } from '../../../src/viewer/createViewer.js';
import { parsePage, record, writeLog } from './fixtures.js';

const decoder = new TextDecoder();

describe('createViewer (Fetch API)', () => {
  it('answers Requests under its prefix with a per-request scope', async () => {
    const log = writeLog([
      record({ session: { id: 's1', seq: 1 }, outputs: { stdout: 'one' } }),
      record({ session: { id: 's2', seq: 1 }, outputs: { stdout: 'two' } }),
    ]);
    const viewer = createViewer({ logPath: log, prefix: '/ui' });
    try {
      const scoped = await viewer.fetch(new Request('http://svc/ui/'), { filter: (r) => r.session?.id === 's1' });
      expect(scoped.status).toBe(200);
      expect(scoped.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'nonce-/);
      const doc = parsePage(await scoped.text());
      expect([...doc.querySelectorAll('.sb-stdout')].map((p) => p.textContent)).toEqual(['one']);
      expect((await viewer.fetch(new Request('http://svc/ui'))).headers.get('location')).toBe('/ui/');
      expect((await viewer.fetch(new Request('http://svc/ui/', { method: 'DELETE' }))).status).toBe(405);
      expect(viewer.paths).toEqual(['/', '/events', '/fragment', '/text', '/replay']);
    } finally {
      await viewer.close();
    }
  });

  it('streams an event when the log grows, and close() ends the stream', async () => {
    const log = writeLog([record()]);
    const viewer = createViewer({ logPath: log, pollMs: 50 });
    const res = await viewer.fetch(new Request('http://svc/events'));
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    expect(decoder.decode((await reader.read()).value)).toBe('retry: 2000\n\n');
    await viewer.fetch(new Request('http://svc/')); // the page read the log up to here
    appendFileSync(log, `${JSON.stringify(record({ code: 'later' }))}\n`);
    let text = '';
    while (!text.includes('event: runs')) text += decoder.decode((await reader.read()).value);
    expect(text).toBe('event: runs\ndata: {}\n\n');
    await viewer.close();
    expect((await reader.read()).done).toBe(true);
  });
});
