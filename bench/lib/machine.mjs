// The machine and the versions a run measured, for the doc and latest.json.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './paths.mjs';

const require = createRequire(join(ROOT, 'package.json'));
const sh = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
};
const version = (pkg) => {
  try {
    return require(`${pkg}/package.json`).version;
  } catch {
    return undefined;
  }
};

/** nproc, memory (`free -h`), CPU model, load at start, Node and library versions. */
export function machineInfo(python, engine) {
  const cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1];
  const free = sh('free', ['-h']);
  const mem = free
    ?.split('\n')
    .find((l) => l.startsWith('Mem:'))
    ?.split(/\s+/);
  const py = python
    ? JSON.parse(
        sh(python, [
          '-c',
          'import sys, json, pandas, numpy; print(json.dumps({"python": sys.version.split()[0], "pandas": pandas.__version__, "numpy": numpy.__version__}))',
        ]) ?? '{}',
      )
    : {};
  return {
    nproc: Number(sh('nproc', [])) || availableParallelism(),
    memTotal: mem?.[1],
    memAvailable: mem?.[6],
    freeH: free,
    cpu,
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
    node: process.version,
    engine: engine ?? null,
    versions: {
      sbirtools: require('./package.json').version,
      arquero: version('arquero'),
      'isolated-vm': version('isolated-vm') ?? null,
      'isolated-vm-legacy': version('isolated-vm-legacy') ?? null,
      acorn: version('acorn'),
      ...py,
    },
    pythonPath: python ?? null,
  };
}

/** Size and row count of the benchmark file. */
export function fileInfo(csv) {
  return { path: csv, bytes: statSync(csv).size, mtime: statSync(csv).mtime.toISOString() };
}
