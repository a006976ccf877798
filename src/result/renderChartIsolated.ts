import { fork, type ChildProcess } from 'node:child_process';
import type { Chart } from '../../schema/result.js';
import { chartWorkerPath } from '../core/paths.js';
import { ChartRenderError } from './renderChart.js';

/** Limits of one chart drawn by renderChartIsolated(). */
export interface ChartLimits {
  /** Longest one chart may take to draw. @default 10000 */
  timeoutMs?: number;
  /** Heap of the chart process, in MB. @default 512 */
  memoryMb?: number;
}

interface Job {
  id: number;
  chart: Chart | Record<string, unknown>;
  resolve: (svg: string) => void;
  reject: (err: Error) => void;
  timeoutMs: number;
}

let worker: ChildProcess | undefined;
let workerMb = 0;
let current: (Job & { timer: NodeJS.Timeout }) | undefined;
const queue: Job[] = [];
let nextId = 1;

function finish(job: Job & { timer: NodeJS.Timeout }, outcome: { svg?: string; error?: string }): void {
  clearTimeout(job.timer);
  current = undefined;
  if (outcome.svg !== undefined) job.resolve(outcome.svg);
  else job.reject(new ChartRenderError(outcome.error ?? 'the chart failed to render'));
  pump();
}

// A chart the process cannot finish kills that process, never the host: the next chart gets a fresh one.
function kill(reason: string): void {
  const w = worker;
  worker = undefined;
  w?.kill('SIGKILL');
  if (current) finish(current, { error: reason });
}

// A child process, not a worker thread: a V8 out-of-memory in a worker thread can still abort the
// whole process (seen with a 30-million-row sequence), a child's only ends the child.
function spawn(memoryMb: number): ChildProcess {
  const w = fork(chartWorkerPath(), [], {
    execArgv: [`--max-old-space-size=${memoryMb}`],
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    serialization: 'advanced',
  });
  w.on('message', (m: { id: number; svg?: string; error?: string }) => {
    if (current && m.id === current.id) finish(current, m);
  });
  w.on('error', (err: Error) => {
    if (worker === w) kill(`the chart renderer failed: ${err.message}`);
  });
  w.on('exit', (code, signal) => {
    if (worker === w)
      kill(
        signal === 'SIGABRT' || signal === 'SIGTRAP' || code === 134
          ? `the chart needs more than ${memoryMb} MB to draw; draw fewer marks (aggregate first)`
          : 'the chart renderer stopped',
      );
  });
  workerMb = memoryMb;
  return w;
}

const setRef = (w: ChildProcess, on: boolean) => {
  // an idle renderer never keeps the process alive
  if (on) {
    w.ref();
    w.channel?.ref();
  } else {
    w.unref();
    w.channel?.unref();
  }
};

function pump(): void {
  if (current) return;
  const job = queue.shift();
  if (!job) {
    if (worker) setRef(worker, false);
    return;
  }
  worker ??= spawn(workerMb || 512);
  setRef(worker, true);
  const timer = setTimeout(
    () => kill(`the chart took longer than ${job.timeoutMs} ms to draw; draw fewer marks or a smaller sequence`),
    job.timeoutMs,
  );
  current = { ...job, timer };
  worker.send({ id: job.id, chart: job.chart });
}

/**
 * renderChart() in a child process with a deadline and a heap cap, for specs that come from guest
 * code: a Vega-Lite `sequence` of 10^9 rows, a huge tickCount or impute range would otherwise
 * stall or exhaust the host. One chart at a time; the process is reused, and replaced after a
 * chart that overran.
 * @throws ChartRenderError for what renderChart() refuses, a chart over `timeoutMs`, or over `memoryMb`.
 * @example const svg = await renderChartIsolated(result.charts[0], { timeoutMs: 5000 });
 */
export function renderChartIsolated(chart: Chart | Record<string, unknown>, limits: ChartLimits = {}): Promise<string> {
  const memoryMb = limits.memoryMb ?? 512;
  if (worker && memoryMb !== workerMb && !current && queue.length === 0) kill('');
  workerMb = memoryMb;
  return new Promise((resolve, reject) => {
    queue.push({ id: nextId++, chart, resolve, reject, timeoutMs: limits.timeoutMs ?? 10_000 });
    pump();
  });
}
