import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { z } from 'zod';

/** What we know about a download: kept next to it as `<file>.json`. */
export const SidecarSchema = z.object({
  url: z.string(),
  etag: z.string().optional(),
  lastModified: z.string().optional(),
  bytes: z.number().int().nonnegative(),
  /** ISO-8601 time the download completed (or started, for a partial file). */
  downloadedAt: z.string(),
});
export type Sidecar = z.infer<typeof SidecarSchema>;

/** The sidecar of `file`, or undefined when missing or unreadable (then we act as if unknown). */
export function readSidecar(file: string): Sidecar | undefined {
  try {
    const parsed = SidecarSchema.safeParse(JSON.parse(readFileSync(`${file}.json`, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the sidecar of `file` atomically. */
export async function writeSidecar(file: string, data: Sidecar): Promise<void> {
  const tmp = `${file}.json.tmp-${process.pid}`;
  await writeFile(tmp, JSON.stringify(data, null, 2) + '\n');
  await rename(tmp, `${file}.json`);
}
