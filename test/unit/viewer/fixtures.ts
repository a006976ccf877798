import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import type { CapsuleOutputs } from '../../../src/capsule/capsuleOutputs.js';
import type { CapsuleRecord } from '../../../src/capsule/capsuleRecord.js';
import { sha256 } from '../../../src/capsule/hash.js';
import { PRESETS } from '../../../src/index.js';
import { createViewerHandler, type ViewerOptions } from '../../../src/viewer/createViewerHandler.js';
import { renderReport } from '../../../src/viewer/renderReport.js';

/** A capsule record as a guest's run could leave it (outputs are whatever the test says). */
export function record(over: Partial<CapsuleRecord> & { outputs?: Partial<CapsuleOutputs> } = {}): CapsuleRecord {
  const code = over.code ?? 'award_data.numRows()';
  const { outputs, ...rest } = over;
  return {
    v: 1,
    time: '2026-01-01T00:00:00.000Z',
    code,
    codeHash: sha256(code),
    dataset: {
      name: 'award_data',
      synthetic: true,
      source: 'embedded-synthetic-sample',
      identity: 'sha256:x',
      rows: 5000,
    },
    prelude: 'sha256:p',
    sbirtools: '0.1.0',
    limits: { ...PRESETS.standard },
    deterministic: null,
    result: { ok: true, stdoutHash: sha256(''), valueHash: sha256('') },
    stats: { wallMs: 12, cpuMs: 10, heapUsedMb: 3 },
    ...rest,
    ...(outputs ? { outputs: { stdout: '', truncated: { stdout: false, value: false }, ...outputs } } : {}),
  };
}

/** Write records (or raw lines) as a JSONL log in a fresh folder; returns its path. */
export function writeLog(lines: Array<CapsuleRecord | string>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'sbirtools-viewer-')), 'runs.jsonl');
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return path;
}

/** Parse a page like a browser would (no script runs: jsdom's default) to inspect its DOM. */
export function parsePage(html: string): Document {
  return new JSDOM(html).window.document;
}

/**
 * Everything in a parsed page that could run code or load something: script elements other than
 * our one nonce'd script, event-handler attributes, javascript:/data: URLs in links, elements that
 * fetch (iframe, img with a remote src, link, object, embed, base, meta refresh, use/image).
 */
export function activeContent(doc: Document): string[] {
  const found: string[] = [];
  const scripts = [...doc.querySelectorAll('script')];
  if (scripts.length !== 1 || !scripts[0]!.getAttribute('nonce')) found.push(`scripts: ${scripts.length}`);
  for (const el of doc.querySelectorAll('*')) {
    for (const a of el.getAttributeNames()) {
      const v = el.getAttribute(a) ?? '';
      if (/^on/i.test(a)) found.push(`${el.tagName} ${a}`);
      if (/^(href|src|xlink:href|action|formaction)$/i.test(a)) found.push(`${el.tagName} ${a}=${v.slice(0, 40)}`);
      if (a === 'style') found.push(`${el.tagName} style`);
    }
    if (/^(iframe|img|link|object|embed|base|use|image|foreignobject|frame)$/i.test(el.tagName)) found.push(el.tagName);
    if (el.tagName === 'META' && /refresh/i.test(el.getAttribute('http-equiv') ?? '')) found.push('meta refresh');
  }
  const styles = [...doc.querySelectorAll('style')];
  if (styles.length !== 1 || !styles[0]!.getAttribute('nonce')) found.push(`styles: ${styles.length}`);
  // our own navigation links (?session=) are the only hrefs allowed
  return found.filter((f) => !/^A href=(\.\/|\/)/.test(f));
}

/** Serve the live viewer in-process on a free loopback port, GET `path`, and close it again. */
export async function livePage(
  logPath: string,
  path = '/',
  options: Partial<ViewerOptions> = {},
): Promise<{ status: number; csp: string; body: string }> {
  const handler = createViewerHandler({ logPath, ...options });
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    return { status: res.status, csp: res.headers.get('content-security-policy') ?? '', body: await res.text() };
  } finally {
    await handler.close();
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
}

/** The report and the live page of a log with these records, parsed, for attack tests. */
export async function bothPages(
  records: CapsuleRecord[],
  session?: string,
): Promise<Array<{ name: string; html: string; doc: Document }>> {
  const path = writeLog(records);
  const report = await renderReport(path, session === undefined ? { all: true } : { session });
  const live = (await livePage(path)).body;
  return [
    { name: 'report', html: report, doc: parsePage(report) },
    { name: 'live', html: live, doc: parsePage(live) },
  ];
}
