// Rewrites the generated part of a Markdown file between `<!-- bench:start -->` and
// `<!-- bench:end -->`, leaving everything else (other sections, other engineers' text) alone.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

export const START = '<!-- bench:start -->';
export const END = '<!-- bench:end -->';

/**
 * Replace the text between the markers; without markers, append `heading` and a marked block.
 * The file is read just before writing and replaced by rename, so a concurrent edit elsewhere in
 * the file is only lost if it lands in between.
 */
export function writeBetweenMarkers(path, body, heading) {
  const text = readFileSync(path, 'utf8');
  const block = `${START}\n${body.trim()}\n${END}`;
  const s = text.indexOf(START);
  const e = text.indexOf(END);
  const next =
    s >= 0 && e > s
      ? text.slice(0, s) + block + text.slice(e + END.length)
      : `${text.trimEnd()}\n\n${heading}\n\n${block}\n`;
  const tmp = `${path}.bench.tmp`;
  writeFileSync(tmp, next);
  renameSync(tmp, path);
}
