/** The platforms `sbirtools bundle` writes for. */
export const BUNDLE_TARGETS = ['lambda', 'vercel', 'node', 'workers', 'vercel-edge'] as const;
export type BundleTarget = (typeof BUNDLE_TARGETS)[number];

/** Where the data of a bundle comes from. */
export type BundleData = { kind: 'folder'; dir: string } | { kind: 'url'; url: string } | { kind: 'synthetic' };

/** A Node function target: where its files go, the modules it starts from, its entry and extra files. */
export interface NodeTargetLayout {
  /** The folder, relative to the bundle's root, holding the entry and node_modules. */
  functionDir: string;
  /** Compiled modules of sbirtools the entry imports (what the tracer starts from). */
  modules: string[];
  entry: { name: string; source: string };
  extra: { path: string; text: string }[];
  /** The platform's size cap on the unzipped function, in bytes. */
  maxBytes: number;
}

const MB = 1024 * 1024;
const PKG = './node_modules/sbirtools/dist/src';
/** The one-file-per-chunk bundle of the function entries (scripts/build-fn.mjs). */
const FN = './node_modules/sbirtools/dist/fn';

/** The entry file, the files around it and the limits, per Node target. */
export function nodeTargetLayout(
  target: Exclude<BundleTarget, 'workers' | 'vercel-edge'>,
  data: BundleData,
  nodeMajor: number,
): NodeTargetLayout {
  const preamble = entryPreamble(data);
  if (target === 'lambda') {
    return {
      functionDir: '.',
      // the bundled entries the function loads, and the compiled modules they were made from: the
      // tracer follows the latter's literal `new URL(..., import.meta.url)` to the run-time files
      modules: ['dist/fn/prewarm.js', 'dist/fn/lambdaHandler.js', 'dist/src/adapters/lambdaHandler.js'],
      entry: {
        name: 'index.mjs',
        source: `// AWS Lambda function written by \`sbirtools bundle --target lambda\`. Handler: index.handler (runtime nodejs${nodeMajor}.x).
// API Gateway HTTP API (payload 2.0) or a Function URL: POST {"code": "..."} -> the RunResult as JSON.
${preamble}
// the holder process starts now, so its start-up overlaps the import of the handler below
(await import('${FN}/prewarm.js')).prewarmSandbox();
const { lambdaHandler } = await import('${FN}/lambdaHandler.js');
export const handler = lambdaHandler({ sandbox: sandboxOptions() });
`,
      },
      extra: [],
      maxBytes: 250 * MB,
    };
  }
  if (target === 'vercel') {
    const fn = '.vercel/output/functions/api/run.func';
    return {
      functionDir: fn,
      modules: [
        'dist/fn/prewarm.js',
        'dist/fn/handler.js',
        'dist/fn/nodeListener.js',
        'dist/src/adapters/handler.js',
        'dist/src/adapters/nodeListener.js',
      ],
      entry: {
        name: 'index.mjs',
        source: `// Vercel function written by \`sbirtools bundle --target vercel\` (Build Output API; deploy: vercel deploy --prebuilt).
// POST /api/run {"code": "..."} -> the RunResult as JSON.
${preamble}
// the holder process starts now, so its start-up overlaps the import of the handler below
(await import('${FN}/prewarm.js')).prewarmSandbox();
const { createHandler } = await import('${FN}/handler.js');
const { toNodeListener } = await import('${FN}/nodeListener.js');
export default toNodeListener(createHandler({ sandbox: sandboxOptions() }));
`,
      },
      extra: [
        {
          path: '.vercel/output/config.json',
          text: `${JSON.stringify({ version: 3, routes: [{ src: '/api/run', dest: '/api/run' }] }, null, 2)}\n`,
        },
        {
          path: `${fn}/.vc-config.json`,
          text: `${JSON.stringify({ runtime: `nodejs${nodeMajor}.x`, handler: 'index.mjs', launcherType: 'Nodejs', shouldAddHelpers: false, memory: 1024, maxDuration: 60 }, null, 2)}\n`,
        },
      ],
      maxBytes: 250 * MB,
    };
  }
  return {
    functionDir: '.',
    modules: ['dist/src/cli/serve.js', 'dist/src/sandbox/defaultBackend.js'],
    entry: {
      name: 'index.mjs',
      source: `// A server written by \`sbirtools bundle --target node\`: \`node index.mjs\` serves on $PORT (default 8787), host $HOST
// (default 0.0.0.0, which needs SBIRTOOLS_API_KEYS). For Cloud Run and other container platforms.
${preamble}
const { serveCommand } = await import('${PKG}/cli/serve.js');
const { shutdownDefaultBackends } = await import('${PKG}/sandbox/defaultBackend.js');
const data = sandboxOptions().dataPath;
const argv = ['--host', process.env.HOST ?? '0.0.0.0', ...(data ? ['--data', data] : []), ...process.argv.slice(2)];
const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, isTTY: false };
process.exitCode = await serveCommand(argv, io).catch((err) => {
  process.stderr.write(\`sbirtools serve: \${err.code ? \`\${err.code}: \` : ''}\${err.message}\\n\`);
  return 1;
});
await shutdownDefaultBackends();
`,
    },
    extra: [
      {
        path: 'package.json',
        text: `${JSON.stringify({ private: true, type: 'module', scripts: { start: 'node index.mjs' }, engines: { node: `>=${nodeMajor}` } }, null, 2)}\n`,
      },
    ],
    maxBytes: Number.POSITIVE_INFINITY,
  };
}

/**
 * The lines every Node entry starts with: the cache in the temp directory (the only writable place
 * on a function platform), and the sandbox's data: the bundled folder, a URL, or the synthetic sample.
 */
function entryPreamble(data: BundleData): string {
  const dataLine =
    data.kind === 'folder'
      ? `fileURLToPath(new URL('./data', import.meta.url))`
      : data.kind === 'url'
        ? `process.env.SBIRTOOLS_DATA_URL || ${JSON.stringify(data.url)}`
        : 'undefined /* the embedded synthetic sample (not real award data) */';
  return `import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// a function's filesystem is read-only except the temp directory
process.env.SBIRTOOLS_CACHE_DIR ||= join(tmpdir(), 'sbirtools');
function sandboxOptions() {
  const dataPath = ${dataLine};
  return dataPath ? { dataPath } : {};
}`;
}
