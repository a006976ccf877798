import { z } from 'zod';

/**
 * The columns of `award_data`: one row per column of SBIR.gov's bulk `award_data.csv`, the single
 * source of truth for typing, legacy aliases and docs/dataset.md. Column names inside the sandbox
 * are exactly these (`d['Award Amount']`); a legacy alias is renamed to its current name.
 *
 * `parse` says how a cell becomes a value (blank or whitespace-only cells are null for every rule):
 * - `text`: kept byte for byte (no trimming, `N/A` kept).
 * - `identifier`: a string even when it looks numeric (`'061962925'`, `'25.4'`); never trimmed.
 * - `duns`: an identifier; the legacy layout's wrapping apostrophes (`'079179794'`) are removed.
 * - `flag`: `'Y' | 'N' | 'U'` (U = unknown) kept as a string; other values are kept and reported.
 * - `amount`: US dollars as a number; `$`, `,` and surrounding spaces are removed (`"171,433"` -> 171433).
 * - `integer`: a whole number; `2019.0` (pandas-resaved files) -> 2019; a fraction is reported, stored null.
 * - `date`: ISO `YYYY-MM-DD` or `M/D/YYYY`, stored as ms since 1970-01-01T00:00:00Z (UTC midnight of that day).
 */
export const SbirParseRuleSchema = z.enum(['text', 'identifier', 'duns', 'flag', 'amount', 'integer', 'date']);
export type SbirParseRule = z.infer<typeof SbirParseRuleSchema>;

/** One column of the SBIR award file. */
export const SbirColumnSpecSchema = z.object({
  /** The column's name in the current layout, and inside the sandbox. */
  name: z.string().min(1),
  /** Logical type seen by users (`dtypes`). */
  type: z.enum(['number', 'integer', 'date', 'string']),
  parse: SbirParseRuleSchema,
  /** False when the real file always fills it; a blank is still stored as null, and reported. */
  nullable: z.boolean(),
  /** Other header spellings (older layouts) that mean this column. */
  aliases: z.array(z.string()),
  /** Which layouts carry it. */
  layouts: z.array(z.enum(['current', 'legacy'])).min(1),
  /** 'utf8' for mostly-unique long text, 'auto' lets ingest pick dictionary encoding by cardinality. */
  encoding: z.enum(['auto', 'utf8']),
  /** One line: what the column means. */
  meaning: z.string().min(1),
});
export type SbirColumnSpec = z.infer<typeof SbirColumnSpecSchema>;

type Row = [string, SbirColumnSpec['type'], SbirParseRule, boolean, SbirColumnSpec['encoding'], string];
const BOTH = ['current', 'legacy'] as const;

const ROWS: Row[] = [
  ['Company', 'string', 'text', false, 'auto', 'Name of the small business that received the award.'],
  ['Award Title', 'string', 'text', true, 'utf8', 'Title of the funded project.'],
  ['Agency', 'string', 'text', false, 'auto', "Awarding federal agency, full name (e.g. 'Department of Defense')."],
  [
    'Branch',
    'string',
    'text',
    true,
    'auto',
    "Component of the agency (e.g. 'Air Force', 'National Institutes of Health'); null when the agency has none.",
  ],
  ['Phase', 'string', 'text', false, 'auto', "'Phase I' (feasibility) or 'Phase II' (development)."],
  ['Program', 'string', 'text', false, 'auto', "'SBIR' or 'STTR' (STTR requires a research-institution partner)."],
  ['Agency Tracking Number', 'string', 'identifier', true, 'utf8', "The agency's internal proposal number."],
  ['Contract', 'string', 'identifier', true, 'utf8', 'Contract or grant number of the award.'],
  ['Proposal Award Date', 'date', 'date', true, 'auto', 'Date the award was made.'],
  ['Contract End Date', 'date', 'date', true, 'auto', 'Date the period of performance ends.'],
  [
    'Solicitation Number',
    'string',
    'identifier',
    true,
    'auto',
    "Solicitation the proposal answered (e.g. 'NSF 24-580', '25.4'); a string, not a number.",
  ],
  ['Solicitation Year', 'integer', 'integer', true, 'auto', 'Year of the solicitation.'],
  ['Solicitation Close Date', 'date', 'date', true, 'auto', 'Deadline of the solicitation.'],
  ['Proposal Receipt Date', 'date', 'date', true, 'auto', 'Date the agency received the proposal.'],
  ['Date of Notification', 'date', 'date', true, 'auto', 'Date the company was told of the award.'],
  ['Topic Code', 'string', 'identifier', true, 'auto', 'Solicitation topic the proposal answered.'],
  ['Award Year', 'integer', 'integer', false, 'auto', 'Fiscal year of the award.'],
  [
    'Award Amount',
    'number',
    'amount',
    true,
    'auto',
    'Award value in US dollars; null when not reported (0 is a real value).',
  ],
  ['UEI', 'string', 'identifier', true, 'auto', 'Unique Entity ID of the company (SAM.gov); current layout only.'],
  ['Duns', 'string', 'duns', true, 'auto', 'DUNS number of the company, 9 digits kept as a string with leading zeros.'],
  [
    'HUBZone Owned',
    'string',
    'flag',
    true,
    'auto',
    "'Y', 'N' or 'U' (unknown): located in a Historically Underutilized Business Zone.",
  ],
  [
    'Socially and Economically Disadvantaged',
    'string',
    'flag',
    true,
    'auto',
    "'Y', 'N' or 'U' (unknown): socially and economically disadvantaged ownership.",
  ],
  ['Woman Owned', 'string', 'flag', true, 'auto', "'Y', 'N' or 'U' (unknown): at least 51% woman-owned."],
  ['Number Employees', 'integer', 'integer', true, 'auto', 'Head count of the company when it applied.'],
  ['Company Website', 'string', 'text', true, 'auto', 'Web address of the company, as entered.'],
  ['Address1', 'string', 'text', true, 'auto', 'Street address of the company.'],
  ['Address2', 'string', 'text', true, 'auto', 'Suite, floor or second address line.'],
  ['City', 'string', 'text', true, 'auto', 'City of the company.'],
  [
    'State',
    'string',
    'text',
    true,
    'auto',
    "State of the company: full name in the current layout ('California'), 2-letter code in the legacy one ('CA').",
  ],
  ['Zip', 'string', 'identifier', true, 'auto', "ZIP or ZIP+4 code, a string (keeps leading zeros: '02472')."],
  ['Abstract', 'string', 'text', true, 'utf8', "Project abstract; may contain line breaks; 'N/A' when withheld."],
  ['Contact Name', 'string', 'text', true, 'auto', "Company's business contact."],
  ['Contact Title', 'string', 'text', true, 'auto', "Business contact's title."],
  ['Contact Phone', 'string', 'text', true, 'auto', "Business contact's phone, as entered."],
  ['Contact Email', 'string', 'text', true, 'auto', "Business contact's email."],
  ['PI Name', 'string', 'text', true, 'auto', 'Principal investigator.'],
  ['PI Title', 'string', 'text', true, 'auto', "Principal investigator's title."],
  ['PI Phone', 'string', 'text', true, 'auto', "Principal investigator's phone, as entered."],
  ['PI Email', 'string', 'text', true, 'auto', "Principal investigator's email."],
  ['RI Name', 'string', 'text', true, 'auto', 'Research institution partner (STTR).'],
  ['RI POC Name', 'string', 'text', true, 'auto', "Research institution's point of contact."],
  ['RI POC Phone', 'string', 'text', true, 'auto', "Research institution contact's phone."],
];

const ALIASES: Readonly<Record<string, string[]>> = { 'Woman Owned': ['Women Owned'] };
const CURRENT_ONLY = new Set(['UEI']);

/** Every column of the current 42-column layout, in file order. */
export const SBIR_COLUMNS: readonly SbirColumnSpec[] = Object.freeze(
  ROWS.map(([name, type, parse, nullable, encoding, meaning]) =>
    SbirColumnSpecSchema.parse({
      name,
      type,
      parse,
      nullable,
      aliases: ALIASES[name] ?? [],
      layouts: CURRENT_ONLY.has(name) ? ['current'] : [...BOTH],
      encoding,
      meaning,
    }),
  ),
);

/** Lower-cased, trimmed header spelling -> column spec (names and aliases). */
const BY_HEADER = new Map<string, SbirColumnSpec>();
for (const spec of SBIR_COLUMNS) {
  for (const n of [spec.name, ...spec.aliases]) BY_HEADER.set(n.trim().toLowerCase(), spec);
}

/**
 * Finds the column a header cell names (case and surrounding spaces ignored; aliases included).
 * @example sbirColumnForHeader('Women Owned')?.name // 'Woman Owned'
 */
export function sbirColumnForHeader(header: string): SbirColumnSpec | undefined {
  return BY_HEADER.get(header.trim().toLowerCase());
}

const FLAG = z.enum(['Y', 'N', 'U']);

function rowField(spec: SbirColumnSpec): z.ZodType {
  const base =
    spec.parse === 'flag'
      ? FLAG
      : spec.type === 'number'
        ? z.number()
        : spec.type === 'integer'
          ? z.number().int()
          : spec.type === 'date'
            ? z.number().describe('ms since 1970-01-01T00:00:00Z')
            : z.string().min(1);
  return (spec.nullable ? base.nullable() : base).describe(spec.meaning);
}

/**
 * One award row as stored (dates as ms since epoch UTC). Generated from {@link SBIR_COLUMNS};
 * `z.toJSONSchema(SbirAwardRowSchema)` gives its JSON Schema.
 */
export const SbirAwardRowSchema = z.object(Object.fromEntries(SBIR_COLUMNS.map((s) => [s.name, rowField(s)])));
