// vitest globalSetup: every temp file of the run goes under one folder, removed when the run ends.
// Tests, the CLI and MCP processes they start, the holder and the bundles all take os.tmpdir(),
// which reads TMPDIR; the forked test workers start after this and inherit it. Without it each full
// run left ~1-3 GB under /tmp (caches, bundles, viewer logs), and CI, which runs the suite twice,
// ran out of disk. Keep the folder with SBIRTOOLS_KEEP_TEST_TMP=1 to look at what a test wrote.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function scratchTmp(): () => void {
  // the root config and each project run their global setups: the first one makes the folder
  if (process.env.SBIRTOOLS_TEST_TMP) return () => {};
  const previous = process.env.TMPDIR;
  // a short name: unix socket paths under it must stay within 107 bytes
  const dir = mkdtempSync(join(tmpdir(), 'sbt-run-'));
  // like /tmp itself: the function-harness tests run node as `nobody` below it
  chmodSync(dir, 0o1777);
  process.env.TMPDIR = dir;
  process.env.SBIRTOOLS_TEST_TMP = dir;
  return () => {
    delete process.env.SBIRTOOLS_TEST_TMP;
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (process.env.SBIRTOOLS_KEEP_TEST_TMP === '1') console.log(`test temp files kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
