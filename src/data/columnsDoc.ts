import { SBIR_COLUMNS } from '../../schema/sbirColumns.js';

/** Markers around the generated table in docs/dataset.md. */
export const COLUMNS_DOC_START =
  '<!-- columns:start (generated from schema/sbirColumns.ts; test/unit/data/datasetDoc.test.ts checks it) -->';
export const COLUMNS_DOC_END = '<!-- columns:end -->';

/**
 * The Markdown table of award_data's columns, generated from {@link SBIR_COLUMNS}.
 * @example renderColumnsTable().split('\n')[0] // '| # | column | type | parse | ...'
 */
export function renderColumnsTable(): string {
  const lines = [
    '| # | column | type | rule | always filled | legacy name | layouts | meaning |',
    '|--:|---|---|---|---|---|---|---|',
  ];
  SBIR_COLUMNS.forEach((c, i) => {
    const cells = [
      String(i + 1),
      `\`${c.name}\``,
      c.type,
      c.parse,
      c.nullable ? '' : 'yes',
      c.aliases.map((a) => `\`${a}\``).join(', '),
      c.layouts.join(', '),
      c.meaning.replaceAll('|', '\\|'),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  });
  return lines.join('\n');
}
