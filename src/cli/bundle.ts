import { writeBundle } from '../bundle/writeBundle.js';
import { BUNDLE_TARGETS, type BundleTarget } from '../bundle/targets.js';
import { parseCommandArgs, UsageError, type CliIo } from './args.js';
import { EXIT } from './exitCodes.js';

export const BUNDLE_HELP = `Usage: sbirtools bundle <out-dir> --target lambda|vercel|node|workers|vercel-edge [--data <folder|URL>] [--force]

Write a self-contained deployable folder in the platform's own layout, then print its size and parts:
  lambda   index.mjs exporting handler (handler string index.handler); zip the folder's contents
  vercel   .vercel/output (Build Output API), function api/run; deploy with vercel deploy --prebuilt
  node     index.mjs serving on $PORT (Cloud Run, containers); node index.mjs
  workers  worker.mjs on the QuickJS WASM engine + wrangler.toml (Cloudflare Workers); wrangler deploy
  vercel-edge  .vercel/output with an Edge Function (runtime edge) on the QuickJS WASM engine, api/run;
           deploy with vercel deploy --prebuilt
The Node targets carry the holder script, the prelude, the isolated-vm addon of this install (and the
QuickJS WASM engine), and their dependencies as @vercel/nft traces them. See docs/deploy.md.

Options:
  --target <name>   lambda, vercel, node, workers or vercel-edge (required)
  --data <dir|URL>  a folder written by \`sbirtools build-data\` (copied in), or an https:// URL of one
                    (fetched at run time); default: the embedded synthetic sample
  --force           replace the contents of a non-empty <out-dir>
  -h, --help        show this help`;

/** `sbirtools bundle`: returns the exit code. */
export async function bundleCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('bundle', argv, {
    target: { type: 'string' },
    data: { type: 'string' },
    force: { type: 'boolean' },
  });
  if (values.help) {
    io.stdout.write(`${BUNDLE_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length !== 1)
    throw new UsageError(
      'bundle',
      positionals.length
        ? `expected one output folder, got ${positionals.length} arguments`
        : 'missing the output folder',
    );
  const target = values.target === undefined ? undefined : String(values.target);
  if (!target || !(BUNDLE_TARGETS as readonly string[]).includes(target)) {
    throw new UsageError('bundle', `--target expects one of ${BUNDLE_TARGETS.join(', ')}, got '${target ?? ''}'`);
  }
  const summary = await writeBundle(positionals[0]!, {
    target: target as BundleTarget,
    ...(values.data !== undefined ? { data: String(values.data) } : {}),
    force: values.force === true,
  });
  const limit = Number.isFinite(summary.maxBytes) ? ` (limit ${mb(summary.maxBytes)} MB)` : '';
  io.stdout.write(
    `${summary.outDir}: ${target} bundle, ${mb(summary.totalBytes)} MB in ${summary.files} files${limit}; entry ${summary.entry}\n`,
  );
  for (const part of summary.parts.slice(0, 12)) io.stdout.write(`  ${mb(part.bytes).padStart(8)} MB  ${part.name}\n`);
  if (summary.parts.length > 12) {
    const rest = summary.parts.slice(12);
    io.stdout.write(`  ${mb(rest.reduce((n, p) => n + p.bytes, 0)).padStart(8)} MB  ${rest.length} more packages\n`);
  }
  for (const note of summary.notes) io.stdout.write(`${note}\n`);
  return EXIT.OK;
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
