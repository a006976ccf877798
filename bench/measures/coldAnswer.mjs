// 2a, cold answer: a fresh `sbirtools run` process (binary cache present) vs a fresh Python
// process that imports pandas, read_csv()s the file and answers the same question. Runs alternate,
// so drift on the shared machine hits both sides alike. The Python runs also give the read_csv
// time (2b's baseline) and pandas' RSS with the file loaded (the host-memory baseline).
//   BENCH_ARGS='{"runs":5,"python":"/usr/bin/python3"}' node bench/measures/coldAnswer.mjs
import { spawn } from 'node:child_process';
import { answerOfPandas, answerOfRun, sameAnswer, WARM_QUESTIONS } from '../questions.mjs';
import { CACHE_DIR, CLI, CSV } from '../lib/paths.mjs';
import { pandasColdAnswer } from '../lib/pandasWorker.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';

const { runs = 5, python } = measureArgs();
const question = WARM_QUESTIONS.find((q) => q.id === 'agencyTop5');

/** One CLI process: ms until the answer is on stdout, and until the process has exited. */
function cliOnce() {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    let answerMs;
    let out = '';
    const child = spawn(process.execPath, [CLI, 'run', '--code', question.js, '--data', CSV, '--json'], {
      env: { ...process.env, SBIRTOOLS_CACHE_DIR: CACHE_DIR },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => {
      answerMs ??= performance.now() - t;
      out += d;
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      const exitMs = performance.now() - t;
      if (code !== 0) return reject(new Error(`sbirtools run exited ${code}: ${err.slice(-1500)}`));
      resolve({ answerMs, exitMs, result: JSON.parse(out) });
    });
  });
}

const cli = [];
const py = [];
let agree;
for (let i = 0; i < runs; i++) {
  const c = await cliOnce();
  cli.push(c);
  if (python) {
    const p = pandasColdAnswer(python, CSV, question.py);
    py.push(p);
    agree ??= sameAnswer(answerOfRun(c.result), answerOfPandas(p.answer));
    log(
      `cold ${i + 1}/${runs}: sbirtools answer ${c.answerMs.toFixed(0)} ms (exit ${c.exitMs.toFixed(0)}), pandas ${p.wallMs.toFixed(0)} ms (read_csv ${p.readMs.toFixed(0)})`,
    );
  } else {
    log(`cold ${i + 1}/${runs}: sbirtools answer ${c.answerMs.toFixed(0)} ms (exit ${c.exitMs.toFixed(0)})`);
  }
}

emit({
  question: question.label,
  sbirtools: { answerMs: summarize(cli.map((c) => c.answerMs)), exitMs: summarize(cli.map((c) => c.exitMs)) },
  pandas: python
    ? {
        wallMs: summarize(py.map((p) => p.wallMs)),
        importMs: summarize(py.map((p) => p.importMs)),
        readCsvMs: summarize(py.map((p) => p.readMs)),
        answerMs: summarize(py.map((p) => p.answer.ms)),
        rssAfterLoadMb: summarize(py.map((p) => p.rssMb)),
        peakRssMb: summarize(py.map((p) => p.hwmMb)),
        version: py[0].pandas,
      }
    : null,
  answersAgree: agree ?? null,
});
