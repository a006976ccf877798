/**
 * The page's only script (inline, under the CSP nonce). It never evaluates content from the log:
 * it pages and sorts tables by moving rows the server rendered, and in the live viewer inserts
 * run cells the server rendered (escaped, sanitized) and shows replay verdicts as text.
 */
export const PAGE_SCRIPT = `(() => {
'use strict';
const body = document.body;
const cfg = body.dataset;
function page(box, start) {
  const rows = Array.from(box.querySelectorAll('tbody tr'));
  const size = Number(box.dataset.pageRows) || 20;
  start = Math.max(0, Math.min(start, Math.max(0, rows.length - 1)));
  start -= start % size;
  rows.forEach((r, i) => { r.hidden = i < start || i >= start + size; });
  box.dataset.start = String(start);
  const label = box.querySelector('.sb-page');
  if (label) label.textContent = 'rows ' + (rows.length ? start + 1 : 0) + '–' + Math.min(start + size, rows.length) + ' of ' + rows.length;
}
function sortBy(th) {
  const box = th.closest('.sb-table');
  const col = Array.from(th.parentNode.children).indexOf(th);
  const dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
  th.parentNode.querySelectorAll('th').forEach((h) => h.setAttribute('aria-sort', 'none'));
  th.setAttribute('aria-sort', dir);
  const numeric = th.dataset.type === 'number';
  const tbody = box.querySelector('tbody');
  const rows = Array.from(tbody.rows);
  const key = (r) => { const v = r.cells[col] ? r.cells[col].dataset.v : ''; return numeric ? (v === '' ? NaN : Number(v)) : v; };
  const sign = dir === 'ascending' ? 1 : -1;
  rows.sort((a, b) => {
    const x = key(a), y = key(b);
    if (numeric) { if (isNaN(x)) return isNaN(y) ? 0 : 1; if (isNaN(y)) return -1; return (x - y) * sign; }
    return x.localeCompare(y) * sign;
  });
  rows.forEach((r) => tbody.appendChild(r));
  page(box, 0);
}
function initTables(root) { root.querySelectorAll('.sb-table').forEach((b) => { if (!b.dataset.start) page(b, 0); }); }
document.addEventListener('click', (ev) => {
  const t = ev.target;
  if (!(t instanceof Element)) return;
  const sort = t.closest('.sb-sort');
  if (sort) return sortBy(sort.closest('th'));
  const box = t.closest('.sb-table');
  if (box && t.closest('.sb-prev')) return page(box, Number(box.dataset.start) - (Number(box.dataset.pageRows) || 20));
  if (box && t.closest('.sb-next')) return page(box, Number(box.dataset.start) + (Number(box.dataset.pageRows) || 20));
  const replay = t.closest('.sb-replay');
  if (replay) return replayRun(replay);
  const older = t.closest('.sb-older-btn');
  if (older) loadOlder(older.closest('.sb-older'));
});
initTables(document);
if (cfg.mode !== 'live') return;
const base = cfg.base || './';
const session = cfg.session;
function q(extra) { return (session !== undefined ? '&session=' + encodeURIComponent(session) : '') + extra; }
async function loadOlder(box) {
  const btn = box.querySelector('.sb-older-btn');
  if (btn.disabled) return;
  btn.disabled = true; btn.textContent = 'loading…';
  try {
    const res = await fetch(base + 'fragment?before=' + encodeURIComponent(box.dataset.before) + q(''), { headers: { accept: 'application/json' } });
    const f = await res.json();
    if (!res.ok || typeof f.older !== 'string') throw new Error(f.error ? f.error.message : String(res.status));
    box.insertAdjacentHTML('beforebegin', '<div class="sb-batch"></div>');
    const batch = box.previousElementSibling;
    batch.insertAdjacentHTML('afterbegin', f.older);
    box.remove();
    initTables(batch);
  } catch (err) { btn.disabled = false; btn.textContent = 'Show older runs (failed: ' + err.message + '; retry)'; }
}
async function replayRun(btn) {
  const out = btn.parentNode.querySelector('.sb-replay-out');
  btn.disabled = true; out.className = 'sb-replay-out'; out.textContent = 'replaying…';
  try {
    const res = await fetch(base + 'replay', { method: 'POST', headers: { 'content-type': 'application/json', 'x-sbirtools-viewer': cfg.token }, body: JSON.stringify({ line: Number(btn.dataset.line) }) });
    const r = await res.json();
    if (!res.ok) { out.textContent = 'replay failed: ' + (r.error ? r.error.message : res.status); return; }
    out.classList.add(r.match ? 'sb-match' : 'sb-mismatch');
    const diffs = [];
    if (!r.stdoutMatch) diffs.push('stdout differs');
    if (!r.valueMatch) diffs.push('value differs');
    if (!r.errorTypeMatch) diffs.push('error type differs');
    out.textContent = r.match ? 'reproduces: stdout and value match' : 'does not reproduce: ' + diffs.join(', ');
    out.title = (r.notes || []).join('\\n');
  } catch (err) { out.textContent = 'replay failed: ' + err.message; } finally { btn.disabled = false; }
}
let busy = false;
async function update() {
  if (busy) return; busy = true;
  try {
    const res = await fetch(base + 'fragment?after=' + encodeURIComponent(cfg.lastLine) + q(''), { headers: { accept: 'application/json' } });
    if (!res.ok) return;
    const f = await res.json();
    if (f.reset) { location.reload(); return; }
    const runs = document.getElementById('sb-runs');
    if (f.runs) {
      document.querySelectorAll('.sb-run.sb-new').forEach((r) => r.classList.remove('sb-new'));
      const empty = document.querySelector('.sb-empty');
      if (empty) empty.remove();
      runs.insertAdjacentHTML('afterbegin', f.runs);
      initTables(runs);
    }
    if (f.sessions) document.getElementById('sb-sessions').innerHTML = f.sessions;
    cfg.lastLine = String(f.lastLine);
    document.getElementById('sb-count').textContent = String(f.count);
  } finally { busy = false; }
}
let poll;
function startPolling() { if (!poll) poll = setInterval(update, 2000); }
if (typeof EventSource === 'function') {
  const es = new EventSource(base + 'events');
  es.addEventListener('runs', update);
  es.addEventListener('error', () => { if (es.readyState === EventSource.CLOSED) startPolling(); });
} else startPolling();
})();`;
