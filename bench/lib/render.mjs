// Markdown for the results: the part of docs/benchmarks.md between the bench markers, and the
// table `npm run bench` prints. Numbers only come from the results object.
import { boundaryRows, resultRows } from './rows.mjs';
import { GEOMEAN_MAX, PER_QUESTION_MAX, duckdbRows, geomean, questionFormRows } from './questionRows.mjs';

const group = (x) => x.toLocaleString('en-US');
/** 1234.5 -> "1,235"; 12.34 -> "12.3"; 1.234 -> "1.23"; 0.1234 -> "0.123". */
export function num(x) {
  if (x === null || x === undefined || Number.isNaN(x)) return '—';
  const a = Math.abs(x);
  if (a >= 100) return group(Math.round(x));
  if (a >= 10) return x.toFixed(1);
  if (a >= 1) return x.toFixed(2);
  return x.toFixed(3);
}
const stat = (s, unit) =>
  s ? (s.p50 === s.p90 ? `${num(s.p50)} ${unit}` : `${num(s.p50)} ${unit} (${num(s.p90)})`) : '—';
const metCell = (m) => (m === true ? 'met' : m === false ? '**not met**' : '');
/** A Markdown table; a heading starting with '<' is a left-aligned column, others align right. */
const table = (head, rows) =>
  [
    `| ${head.map((h) => h.replace(/^</, '')).join(' | ')} |`,
    `|${head.map((h) => (h.startsWith('<') ? '---' : '--:')).join('|')}|`,
    // a label indented by two spaces belongs to the row above (Markdown would drop the spaces)
    ...rows.map((r) => `| ${r.map((c) => String(c).replace(/^ {2}/, '↳ ')).join(' | ')} |`),
  ].join('\n');

export function resultsTable(r) {
  const rows = resultRows(r).map((x) => [
    x.id,
    x.measure,
    stat(x.ours, x.unit),
    x.base ? stat(x.base, x.unit) : r.pandasSkipped && x.target.includes('x') ? 'skipped' : '—',
    x.ratio === null ? '—' : `${num(x.ratio)}x`,
    x.target,
    metCell(x.met),
  ]);
  return table(['<', '<measure', 'sbirtools p50 (p90)', 'baseline p50 (p90)', 'ratio', '<target', '<met'], rows);
}

function boundaryTable(r) {
  const rows = boundaryRows(r).map((x) => [
    x.measure,
    stat(x.inline, 'ms'),
    stat(x.process, 'ms'),
    `${num(x.costMs)} ms`,
  ]);
  return rows.length
    ? table(
        [
          '<warm run',
          "`isolation: 'inline'` p50 (p90)",
          "`'process'` (default) p50 (p90)",
          'cost of the boundary (p50)',
        ],
        rows,
      )
    : '';
}

function cliTable(r) {
  const b = r.cliBreakdown;
  if (!b) return '';
  const names = {
    nodeStartMs: 'node start (process start to the first line of the script)',
    holderStartMs: 'start the holder process (bin/sbirtools.js does this first; it boots in parallel)',
    cliModulesMs: 'load the CLI `run` command and what it imports',
    holderWaitMs: 'wait for the holder to be ready (its start-up not hidden behind the imports)',
    sessionOpenMs: 'open the session: cache header, isolate, prelude without code cache, boot',
    firstAnswerMs: 'first answer: policy check, run (2 columns read from the cache, cold JIT), result',
    shutdownMs: 'close the session and stop the holder',
    wallMs: '**total**, spawn to exit',
  };
  const rows = Object.entries(names)
    .filter(([k]) => b.steps[k])
    .map(([k, label]) => [label, stat(b.steps[k], 'ms')]);
  rows.push(
    ['for reference: `node -e 0`', stat(b.bareNodeMs, 'ms')],
    ['for reference: `node --no-node-snapshot -e 0` (how the holder starts)', stat(b.bareNodeNoSnapshotMs, 'ms')],
    ['for reference: loading only what `run()` needs (`dist/src/sandbox/sandbox.js`)', stat(b.runModulesOnlyMs, 'ms')],
    ['for reference: a holder alone, spawn until it answers', stat(b.holderAloneMs, 'ms')],
  );
  return table(['<step', 'p50 (p90)'], rows);
}

const agreeCell = (a) => (a === true ? 'yes' : a === false ? '**no**' : '—');

function questionFormTable(r) {
  const rows = questionFormRows(r);
  if (!rows.length) return '';
  const body = rows.map((x) => [
    x.label,
    x.form,
    stat(x.ours, 'ms'),
    x.pandas ? stat(x.pandas, 'ms') : 'skipped',
    x.ratio === null ? '—' : `${num(x.ratio)}x`,
    metCell(x.met),
    agreeCell(x.agree),
  ]);
  const g = geomean(rows);
  body.push([
    `**geometric mean** (${rows.filter((x) => x.ratio !== null).length} question-forms)`,
    '',
    '',
    '',
    g === null ? '—' : `**${num(g)}x**`,
    g === null ? '' : `${metCell(g <= GEOMEAN_MAX)} (<= ${GEOMEAN_MAX}x)`,
    '',
  ]);
  return table(
    [
      '<question',
      '<form',
      'sbirtools p50 (p90)',
      'pandas p50 (p90)',
      'ratio',
      `<<= ${PER_QUESTION_MAX}x`,
      '<answers agree',
    ],
    body,
  );
}

function duckdbTable(r) {
  const rows = duckdbRows(r);
  if (!rows.length) return '';
  const body = rows.map((x) => [
    x.label,
    x.kind,
    x.form,
    stat(x.ours, 'ms'),
    stat(x.duckdb, 'ms'),
    x.ratio === null ? '—' : `${num(x.ratio)}x`,
    agreeCell(x.agree),
  ]);
  return table(
    ['<question', '<kind', '<form', 'sbirtools p50 (p90)', 'DuckDB p50 (p90)', 'ratio', '<same answer'],
    body,
  );
}

/** Issue 25's targets for each Series method: within these multiples of pandas and of the loop. */
const SERIES_PANDAS_MAX = 2;
const SERIES_LOOP_MAX = 1.5;
const SERIES_GEO_PANDAS_MAX = 0.5;
const SERIES_GEO_DUCKDB_MAX = 1.5;

function firstTouchTable(r) {
  const rows = r.firstTouch?.rows ?? [];
  if (!rows.length) return '';
  const head = '| question | code | first run ms | warm ms |\n| --- | --- | --: | --: |';
  return [
    head,
    ...rows.map(
      (x) =>
        `| ${x.name} | \`${x.code.replace(/\|/g, '\\|')}\` | ${num(x['this build'].firstMs)} | ${num(x['this build'].warmMs)} |`,
    ),
  ].join('\n');
}

function seriesMethodTable(r) {
  const rows = r.series?.methods ?? [];
  if (!rows.length) return '';
  const ratio = (a, b) => (b === null || b === undefined ? null : Math.max(a, 0.01) / Math.max(b, 0.01));
  const body = rows.map((x) => {
    const rp = ratio(x.seriesMs, x.pandasMs);
    const rl = ratio(x.seriesMs, x.loopMs);
    const rd = ratio(x.seriesMs, x.duckMs);
    const met = (rp === null || rp <= SERIES_PANDAS_MAX) && rl <= SERIES_LOOP_MAX;
    return [
      x.name.replace(/\|/g, '\\|'),
      `\`${x.series.replace(/\|/g, '\\|')}\``,
      `${num(x.seriesMs)} ms`,
      `${num(x.loopMs)} ms`,
      x.pandasMs === null ? 'skipped' : `${num(x.pandasMs)} ms`,
      x.duckMs === null || x.duckMs === undefined ? '—' : `${num(x.duckMs)} ms`,
      `${num(rl)}x`,
      rp === null ? '—' : `${num(rp)}x`,
      rd === null ? '—' : `${num(rd)}x`,
      metCell(met),
    ];
  });
  const g = (xs) => (xs.length ? Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length) : null);
  const over = (key) =>
    rows.filter((x) => x[key] !== null && x[key] !== undefined).map((x) => ratio(x.seriesMs, x[key]));
  const gl = g(over('loopMs'));
  const gp = g(over('pandasMs'));
  const gd = g(over('duckMs'));
  body.push([
    `**geometric mean** (${rows.length} methods)`,
    '',
    '',
    '',
    '',
    '',
    `**${num(gl)}x**`,
    gp === null ? '—' : `**${num(gp)}x**`,
    gd === null ? '—' : `**${num(gd)}x**`,
    gp === null
      ? ''
      : `${metCell(gp <= SERIES_GEO_PANDAS_MAX && (gd === null || gd <= SERIES_GEO_DUCKDB_MAX))} (<= ${SERIES_GEO_PANDAS_MAX}x pandas, <= ${SERIES_GEO_DUCKDB_MAX}x DuckDB)`,
  ]);
  return table(
    [
      '<method',
      '<Series form',
      'Series',
      'plain loop',
      'pandas',
      'DuckDB',
      'vs loop',
      'vs pandas',
      'vs DuckDB',
      `<<= ${SERIES_PANDAS_MAX}x pandas and <= ${SERIES_LOOP_MAX}x loop`,
    ],
    body,
  );
}

function optimisationTable(r) {
  const rows = [];
  if (r.codeCache) {
    const c = r.codeCache;
    rows.push([
      `V8 code cache for the prelude bundle (${c.bundleKb} KB; cache ${c.cacheKb} KB)`,
      `compile + evaluate ${stat(c.withCache.compileAndEvalMs, 'ms')}`,
      stat(c.withoutCache.compileAndEvalMs, 'ms'),
      `${num(c.withoutCache.compileAndEvalMs.p50 - c.withCache.compileAndEvalMs.p50)} ms per isolate boot (compile alone: ${num(c.withoutCache.compileMs.p50)} -> ${num(c.withCache.compileMs.p50)} ms); only after the first isolate of a process`,
    ]);
  }
  if (r.fresh) {
    rows.push([
      'warm spare isolate (one-shot `run()` of `award_data.numRows()`)',
      stat(r.fresh.warmSpare.numRows, 'ms'),
      stat(r.fresh.noSpare.numRows, 'ms'),
      `${num(r.fresh.noSpare.numRows.p50 - r.fresh.warmSpare.numRows.p50)} ms per fresh-isolate run`,
    ]);
  }
  if (r.lazyColumns) {
    const l = r.lazyColumns;
    rows.push([
      "lazy per-column loading: a fresh session's first query (2 columns) vs after forcing all columns, fresh holder",
      stat(l.freshHolderMs.twoColumns, 'ms'),
      stat(l.freshHolderMs.allColumns, 'ms'),
      `holder RSS ${num(l.holderRssMb.twoColumns.p50)} MB vs ${num(l.holderRssMb.allColumns.p50)} MB`,
    ]);
    rows.push([
      '  same, second session on a warm holder (columns already read from the cache file)',
      stat(l.warmHolderMs.twoColumns, 'ms'),
      stat(l.warmHolderMs.allColumns, 'ms'),
      'the isolate copy and decode of every column, per session',
    ]);
  }
  if (r.dictEncoding) {
    const d = r.dictEncoding;
    rows.push([
      `dictionary-encoded categories (\`${d.column}\`, ${d.distinct} values; simulated on the host): bytes to store and copy`,
      `${num(d.dictBytes / 1e6)} MB`,
      `${num(d.utf8Bytes / 1e6)} MB as utf8`,
      `${num(d.utf8Bytes / d.dictBytes)}x less to read from the cache and copy into each isolate`,
    ]);
    rows.push([
      '  decode the column to JS strings',
      stat(d.decodeMs.dict, 'ms'),
      stat(d.decodeMs.utf8, 'ms'),
      `${num(d.decodeMs.utf8.p50 / d.decodeMs.dict.p50)}x faster (host TextDecoder: one decode per distinct value instead of one per row)`,
    ]);
    rows.push([
      '  Arquero groupby + sum over the decoded column',
      stat(d.groupbyMs.dict, 'ms'),
      stat(d.groupbyMs.utf8, 'ms'),
      'no difference: Arquero groups by string value either way',
    ]);
  }
  if (r.hostMemory && r.ingest) {
    const h = r.hostMemory;
    rows.push([
      'binary cache read: open + 2 columns in a fresh process vs parsing the CSV again (`ingestCsv`)',
      stat(h.twoColumns.ms, 'ms'),
      stat(r.ingest.ingestCsv.ms, 'ms'),
      `${num(r.ingest.ingestCsv.ms.p50 / h.twoColumns.ms.p50)}x; all ${h.allColumns.columns} columns from the cache: ${stat(h.allColumns.ms, 'ms')}`,
    ]);
  }
  return rows.length ? table(['<optimisation', 'with', 'without', '<what it buys'], rows) : '';
}

/** The generated section of docs/benchmarks.md (between the markers). */
export function docSection(r) {
  const m = r.machine;
  const v = m.versions;
  const lines = [
    `_Generated by \`npm run bench\` (bench/run.mjs) on ${r.generatedAt.slice(0, 10)}; do not edit by hand. Raw numbers: bench/results/latest.json._`,
    '',
    `- Machine: ${m.nproc} cores (\`nproc\`), ${m.cpu ?? 'unknown CPU'} (/proc/cpuinfo), ${m.memTotal} RAM (${m.memAvailable} available, \`free -h\`); load average at start ${m.loadAverage.join(', ')} (a shared VM: other work ran alongside).`,
    `- Software: Node ${m.node}, engine ${m.engine ?? 'unknown'}, Arquero ${v.arquero}, acorn ${v.acorn}; baseline ${r.pandasSkipped ? `skipped (${r.pandasSkipped})` : `Python ${v.python}, pandas ${v.pandas}, numpy ${v.numpy} (\`${m.pythonPath}\`)`}.`,
    `- Data: \`${r.file.name}\`, ${group(r.file.rows ?? 0)} rows, ${num(r.file.bytes / 1e6)} MB, made by \`node bench/generate.mjs ${r.file.generateArgs}\`; binary cache present unless stated.`,
    `- Repetitions: ${r.repetitions}.`,
    `- Answers: sbirtools and pandas ${r.answersAgree === null ? 'were not compared (no pandas)' : r.answersAgree ? 'gave the same answers (warm questions, cold answer, host-vs-isolate queries)' : '**disagreed** on some answer (see latest.json)'}.`,
    '',
    '#### Results against the targets',
    '',
    'Ratio = sbirtools p50 / baseline p50 (lower is better unless stated).',
    '',
    resultsTable(r),
  ];
  const sections = [
    [
      '#### Every question, every form, vs pandas (issue 12)',
      `Warm, one session (process isolation, the default) and one pandas worker with the frame loaded, asked in turn. Forms: **loop style** (plain JavaScript over \`.array()\` columns, the way models write it: bench/questions-loop.mjs), **prelude** (pandas-like helpers) and **plain Arquero** verbs (bench/questions.mjs, bench/verbQuestions.mjs). The trivial run is left out (its target is absolute, above). Every answer is checked against pandas.${r.skipped?.length ? ` Not measured in this run: ${r.skipped.join(', ')} (measure file absent).` : ''}`,
      questionFormTable(r),
    ],
    [
      '#### DuckDB as the native reference (issue 12)',
      r.duckdb
        ? `DuckDB ${r.duckdb.version ?? ''} (\`@duckdb/node-api\`) inside the bench process, ${r.duckdb.threads} thread (a sandbox session runs on one), over the same CSV loaded into an in-memory table (load ${group(r.duckdb.loadMs)} ms, not counted); SQL in bench/measures/duckdbReference.mjs. Ratio = sbirtools p50 / DuckDB p50. Answers checked against DuckDB's: ${r.duckdbAnswersAgree === null ? 'not compared' : r.duckdbAnswersAgree ? 'all the same' : '**some differ** (latest.json)'}.`
        : '',
      duckdbTable(r),
    ],
    [
      '#### Every Series/DataFrame method, one by one (issue 25)',
      r.series
        ? `Warm, one session and one pandas worker. Each method four ways: the Series form, the plain loop over \`award_data.array()\` it replaces (bench/lib/seriesMethods.mjs), pandas, and DuckDB's SQL on the same CSV in an in-memory table (${r.series.duckdb ? `DuckDB ${r.series.duckdb.version}, ${r.series.duckdb.threads} thread` : 'not run'}). Series and loop are timed inside the isolate, interleaved, ${r.series.reps} evaluations each (median); pandas inside Python (perf_counter, median of ${r.series.reps}); DuckDB around \`runAndReadAll\` (median of ${r.series.reps}). No sandbox round trip in any figure.`
        : '',
      seriesMethodTable(r),
    ],
    [
      '#### The first touch of Abstract in a fresh process (issue 25)',
      r.firstTouch
        ? `Each question in its own fresh process (bench/first-touch.mjs): sandbox made, \`1\` run, then the question (first touch: the holder reads the column) and again (warm). Median of ${r.firstTouch.runs}.`
        : '',
      firstTouchTable(r),
    ],
    [
      '#### The process boundary (crash containment)',
      'The same warm runs (c) in one session in-process and in one session in a holder process; the difference is the IPC round trip and the structured clone of the request and outcome.',
      boundaryTable(r),
    ],
    [
      '#### The CLI cold start, step by step',
      'Fresh processes doing what `sbirtools run --code ... --data ...` does (the agency question), with a clock between steps.',
      cliTable(r),
    ],
    [
      '#### What each optimisation bought',
      'Measured where a switch exists or can be simulated in the bench.',
      optimisationTable(r),
    ],
  ];
  for (const [title, intro, body] of sections) if (body) lines.push('', title, '', intro, '', body);
  return lines.join('\n');
}
