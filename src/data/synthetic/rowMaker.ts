import { SBIR_COLUMNS } from '../../../schema/sbirColumns.js';
import { Prng } from './prng.js';
import { companyPool, type Company } from './companies.js';
import { AGENCIES, FIRST_NAMES, LAST_NAMES, SENTENCES, TITLES, TITLE_NOUNS, TITLE_WORDS } from './vocab.js';

/** Which header, date, amount and DUNS formats to write. */
export type SyntheticLayout = 'current' | 'legacy';

type Cell = string | null;

/** Makes CSV text for synthetic award rows, one record at a time, from one seeded PRNG. */
export class RowMaker {
  private readonly rng: Prng;
  private readonly pool: Company[];
  private readonly names: string[];

  constructor(
    private readonly layout: SyntheticLayout,
    seed: number,
    rows: number,
    private readonly abstractChars: number,
  ) {
    this.rng = new Prng(seed);
    this.pool = companyPool(this.rng, Math.max(50, Math.ceil(rows / 6)));
    this.names = SBIR_COLUMNS.filter((c) => layout === 'current' || c.layouts.includes('legacy')).map((c) =>
      layout === 'legacy' && c.aliases.length > 0 ? c.aliases[0] : c.name,
    );
  }

  /** The header line (with its line break). */
  header(): string {
    return this.names.map((n) => (this.layout === 'current' && n.includes(' ') ? `"${n}"` : n)).join(',') + '\n';
  }

  /** One record (with its line break); fields may contain CR/LF, commas and quotes. */
  row(): string {
    const r = this.rng;
    const legacy = this.layout === 'legacy';
    const agency = r.weighted(AGENCIES);
    const branch = r.weighted(agency.branches);
    const co = r.pick(this.pool);
    const phase = r.chance(0.65) ? 'Phase I' : 'Phase II';
    const program = r.chance(0.13) ? 'STTR' : 'SBIR';
    const year = awardYear(r);
    const dated = r.chance(year >= 2008 ? 0.8 : 0.15);
    const award = dated ? this.day(year, r.int(0, 364)) : null;
    const topic = `${agency.code === 'DOD' ? 'N' : agency.code.slice(0, 2)}${String(year % 100).padStart(2, '0')}${r.int(1, 3)}-${r.digits(3)}`;
    const amount = this.amount(phase, year);
    const pi = this.person();
    const contact = r.chance(0.3) ? '  ' : this.person();
    const values: Record<string, Cell> = {
      Company: co.name,
      'Award Title': `${phase === 'Phase I' && r.chance(0.4) ? `${program} ${phase}: ` : ''}${r.pick(TITLE_WORDS)} ${r.pick(TITLE_NOUNS)} ${r.chance(0.5) ? `for ${r.pick(TITLE_NOUNS)} ` : ''}${r.int(1, 999)}`,
      Agency: agency.name,
      Branch: branch || null,
      Phase: phase,
      Program: program,
      'Agency Tracking Number': r.chance(0.03) ? null : `${topic}-${r.digits(4)}`,
      Contract: r.chance(0.15) ? null : `${agency.code}${r.digits(2)}-${year}-C-${r.digits(4)}`,
      'Proposal Award Date': r.chance(0.0005) ? this.day(1905, r.int(0, 300)) : award,
      'Contract End Date': dated ? this.day(year, r.int(180, 900)) : null,
      'Solicitation Number': r.chance(0.4)
        ? null
        : agency.code === 'NSF'
          ? `NSF ${year % 100}-${r.int(500, 599)}`
          : `${year % 100}.${r.int(1, 4)}`,
      'Solicitation Year': r.chance(0.3) ? null : String(year - r.int(0, 1)),
      'Solicitation Close Date': dated && r.chance(0.7) ? this.day(year - 1, r.int(0, 364)) : null,
      'Proposal Receipt Date': dated && r.chance(0.6) ? this.day(year - 1, r.int(0, 364)) : null,
      'Date of Notification': dated && r.chance(0.7) ? this.day(year, r.int(0, 364)) : null,
      'Topic Code': r.chance(0.3) ? null : topic,
      'Award Year': String(year),
      'Award Amount': amount,
      UEI: r.chance(0.1) ? null : co.uei,
      Duns: r.chance(0.4) ? null : legacy ? `'${co.duns}'` : co.duns,
      'HUBZone Owned': r.weighted([
        ['N', 85],
        ['Y', 5],
        ['U', 10],
      ] as const),
      'Socially and Economically Disadvantaged': r.weighted([
        ['N', 80],
        ['Y', 12],
        ['U', 8],
      ] as const),
      'Woman Owned': r.weighted([
        ['N', 82],
        ['Y', 12],
        ['U', 6],
      ] as const),
      'Number Employees': r.chance(0.08) ? null : String(co.employees),
      'Company Website': co.website,
      Address1: co.address1,
      Address2: co.address2,
      City: co.city,
      State: legacy ? co.stateCode : co.state,
      Zip: co.zip,
      Abstract: this.abstract(),
      'Contact Name': contact,
      'Contact Title': r.chance(0.5) ? null : r.pick(TITLES),
      'Contact Phone': contact === '  ' ? null : this.phone(),
      'Contact Email': contact === '  ' ? null : email(contact),
      'PI Name': pi,
      'PI Title': r.chance(0.4) ? null : r.pick(TITLES),
      'PI Phone': this.phone(),
      'PI Email': email(pi),
      'RI Name': program === 'STTR' ? `University of ${r.pick(LAST_NAMES)}` : null,
      'RI POC Name': program === 'STTR' ? this.person() : legacy ? null : '  ',
      'RI POC Phone': program === 'STTR' ? this.phone() : null,
    };
    return (
      SBIR_COLUMNS.filter((c) => !legacy || c.layouts.includes('legacy'))
        .map((c) => this.csv(values[c.name], c.parse === 'text'))
        .join(',') + '\n'
    );
  }

  private csv(v: Cell, text: boolean): string {
    if (v === null) return '';
    if (/[",\r\n]/.test(v)) return `"${v.replaceAll('"', '""')}"`;
    if (v.trim() === '') return `"${v}"`; // the real file's "  " placeholders are always quoted
    // the real current file quotes most text cells, but not all: quoting varies per field
    return this.layout === 'current' && text && this.rng.chance(0.8) ? `"${v}"` : v;
  }

  private day(year: number, dayOfYear: number): string {
    const d = new Date(Date.UTC(year, 0, 1 + dayOfYear));
    const [y, m, dd] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
    return this.layout === 'current'
      ? `${y}-${String(m).padStart(2, '0')}-${String(dd).padStart(2, '0')}`
      : `${m}/${dd}/${y}`;
  }

  private amount(phase: string, year: number): Cell {
    const r = this.rng;
    if (r.chance(0.01)) return null;
    if (r.chance(0.004)) return this.layout === 'current' ? '0.0000' : '0';
    const era = year < 2000 ? 0.5 : year < 2015 ? 0.8 : 1;
    const dollars = Math.round((phase === 'Phase I' ? r.int(50_000, 300_000) : r.int(300_000, 2_000_000)) * era);
    if (this.layout === 'legacy') return String(dollars).replace(/\B(?=(\d{3})+$)/g, ',');
    return r.chance(0.1) ? `${dollars}.${r.digits(2)}00` : `${dollars}.0000`;
  }

  private person(): string {
    return `${this.rng.pick(FIRST_NAMES)} ${this.rng.chance(0.3) ? `${String.fromCharCode(65 + this.rng.int(0, 25))} ` : ' '}${this.rng.pick(LAST_NAMES)}`;
  }

  private phone(): string {
    const r = this.rng;
    return this.layout === 'legacy'
      ? `(${r.int(201, 989)}) ${r.int(200, 999)}-${r.digits(4)}`
      : `${r.int(201, 989)}-${r.int(200, 999)}-${r.digits(4)}`;
  }

  private abstract(): Cell {
    const r = this.rng;
    if (r.chance(0.02)) return null;
    if (r.chance(0.03)) return 'N/A';
    // the loop overshoots by half a sentence on average; aim that much lower
    const target = Math.round(this.abstractChars * (0.3 + 1.4 * r.next())) - 45;
    const breaks = r.chance(0.11) ? '\n' : r.chance(0.02) ? r.pick(['\r', '\r\n']) : ' ';
    let text = r.pick(SENTENCES);
    while (text.length < target) text += (r.chance(0.15) ? breaks : ' ') + r.pick(SENTENCES);
    return text;
  }
}

function awardYear(r: Prng): number {
  // linear growth: awards per year rise from 1983 to 2026
  const span = 2026 - 1983 + 1;
  const u = r.next() * ((span * (span + 1)) / 2);
  let acc = 0;
  for (let k = 1; k <= span; k++) if ((acc += k) > u) return 1982 + k;
  return 2026;
}

function email(name: string): string {
  return `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`;
}
