// Hazard: network access (exfiltration, SSRF): fetch, XMLHttpRequest, WebSocket, EventSource.
// Layers: the policy (no-io); none of them exist in the isolate; Arquero's URL loaders have no
// transport. A loopback server counts connections: there must be none.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { BYPASS, expectHealthy, expectPolicy, rt } from './helpers.js';

let server: Server;
let url = '';
let connections = 0;

beforeAll(async () => {
  server = createServer((req, res) => res.end('a,b\n1,2\n'));
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/data.csv`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the network', () => {
  for (const [code, rule] of [
    ['await fetch(URL)', 'no-io'],
    ["const x = new XMLHttpRequest(); x.open('GET', URL); x.send()", 'no-io'],
    ['new WebSocket(URL)', 'no-io'],
    ['new EventSource(URL)', 'no-io'],
    ["require('http').get(URL)", 'no-module-globals'],
    ['navigator.sendBeacon(URL)', 'no-io'],
  ] as const) {
    it(`${code.split('(')[0]}: POLICY_VIOLATION ${rule}`, async () => {
      expectPolicy(await run(code.replaceAll('URL', JSON.stringify(url))), rule);
    });
  }

  it('bypassed: no transport exists, and no connection reaches a loopback server', async () => {
    await using box = await createSandbox({ timeoutMs: 3000 });
    const present = await box.run(
      `${BYPASS} ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'navigator', 'Request', 'Response', 'Headers', 'URL'].filter((n) => typeof G[n] !== 'undefined')`,
    );
    expect(present.value).toEqual([]);
    for (const code of [
      `${BYPASS} await G[${rt('fetch')}](URL)`,
      `${BYPASS} F('return fetch(URL)')()`,
      `${BYPASS} new G[${rt('WebSocket')}](URL)`,
      'await aq.loadCSV(URL)',
      'await aq.load(URL)',
      'await aq.loadArrow(URL)',
      `${BYPASS} await F('return import(URL)')()`,
    ]) {
      const r = await box.run(code.replaceAll('URL', JSON.stringify(url)));
      expect(r.error?.type, code).toBe('RUNTIME_ERROR');
    }
    expect(connections).toBe(0);
    await expectHealthy(box);
  });
});
