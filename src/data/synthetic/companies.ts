import type { Prng } from './prng.js';
import { COMPANY_FORMS, COMPANY_HEADS, COMPANY_TAILS, STATES } from './vocab.js';

/** A synthetic company: the same firm wins several awards, as in the real file. */
export interface Company {
  name: string;
  uei: string;
  duns: string;
  employees: number;
  website: string | null;
  address1: string;
  address2: string | null;
  city: string;
  state: string;
  stateCode: string;
  zip: string;
}

const UEI_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

/** `size` invented companies, deterministic for a given PRNG state. */
export function companyPool(r: Prng, size: number): Company[] {
  const pool: Company[] = [];
  for (let i = 0; i < size; i++) {
    const [state, stateCode, city, zipPrefix] = r.pick(STATES);
    const base = `${r.pick(COMPANY_HEADS)} ${r.pick(COMPANY_TAILS)}`;
    const name = `${base}${i >= COMPANY_HEADS.length * COMPANY_TAILS.length ? ` ${i}` : ''}${r.chance(0.7) ? `, ${r.pick(COMPANY_FORMS)}` : ''}`;
    let uei = '';
    for (let k = 0; k < 12; k++) uei += UEI_CHARS[r.int(0, UEI_CHARS.length - 1)];
    pool.push({
      name,
      uei,
      duns: r.digits(9),
      employees: r.chance(0.7) ? r.int(1, 50) : r.int(51, 500),
      website: r.chance(0.6) ? `https://www.${base.toLowerCase().replace(/[^a-z]+/g, '')}${i}.example` : null,
      address1: `${r.int(1, 9999)} ${r.pick(['Research', 'Innovation', 'Commerce', 'Technology', 'Sunrise Valley'])} ${r.pick(['Drive', 'Blvd', 'Way', 'Street', 'Pkwy'])}`,
      address2: r.chance(0.25) ? `Suite ${r.int(100, 999)}` : null,
      city,
      state,
      stateCode,
      zip: r.chance(0.5) ? `${zipPrefix}${r.digits(3)}` : `${zipPrefix}${r.digits(3)}-${r.digits(4)}`,
    });
  }
  return pool;
}
