import { CUT_MARKER, type CapsuleOutputs, type CapsuleTable } from './capsuleOutputs.js';

const bytesOf = (o: unknown): number => Buffer.byteLength(JSON.stringify(o), 'utf8');

/** The first `keep` UTF-8 bytes of `s` (never half a character), plus CUT_MARKER. */
export function cutString(s: string, keep: number): string {
  const buf = Buffer.from(s, 'utf8');
  if (buf.length <= keep) return s;
  let end = Math.max(0, keep);
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--; // back off a continuation byte
  return buf.subarray(0, end).toString('utf8') + CUT_MARKER;
}

/** One thing that can be made smaller: its current size and a step that shrinks it (false when it cannot). */
interface Shrinkable {
  field: string;
  size: () => number;
  shrink: (excess: number) => boolean;
}

function stringSlot(o: Record<string, unknown>, key: string, field: string): Shrinkable {
  return {
    field,
    size: () => (typeof o[key] === 'string' ? Buffer.byteLength(o[key] as string) : 0),
    shrink: (excess) => {
      const s = o[key];
      if (typeof s !== 'string' || s.length === 0) return false;
      const len = Buffer.byteLength(s);
      // cut by the excess (plus room for the marker and JSON escapes), at least a half when it is small
      const keep = Math.min(Math.floor(len / 2), len - excess - 256);
      o[key] = keep <= 0 ? CUT_MARKER.trimStart() : cutString(s, keep);
      return true;
    },
  };
}

function rowsSlot(t: CapsuleTable, field: string): Shrinkable {
  return {
    field,
    size: () => bytesOf(t.rows),
    shrink: () => {
      if (t.rows.length === 0) return false;
      t.rows = t.rows.slice(0, Math.floor(t.rows.length / 2));
      t.truncated = true;
      return true;
    },
  };
}

function dropSlot(o: Record<string, unknown>, key: string, field: string, note?: () => void): Shrinkable {
  return {
    field,
    size: () => (o[key] === undefined ? 0 : bytesOf(o[key])),
    shrink: () => {
      if (o[key] === undefined) return false;
      delete o[key];
      note?.();
      return true;
    },
  };
}

/**
 * Cut a run's outputs to at most `maxBytes` of JSON, the largest part first: the JSON value, chart
 * specs that have an SVG, table rows (halved), long strings (cut with CUT_MARKER), then SVGs.
 * Records what was cut in `outputs.cut`. Never throws; returns a new object.
 * @example fitOutputs(outputs, 256 * 1024).cut?.fields // ['stdout']
 */
export function fitOutputs(outputs: CapsuleOutputs, maxBytes: number): CapsuleOutputs {
  const originalBytes = bytesOf(outputs);
  if (originalBytes <= maxBytes) return outputs;
  const o = structuredClone(outputs) as CapsuleOutputs & Record<string, unknown>;
  const tables: [CapsuleTable, string][] = [];
  if (o.table) tables.push([o.table, 'table.rows']);
  o.displays?.forEach((t, i) => tables.push([t, `displays[${i}].rows`]));
  const charts = o.charts ?? [];
  // Each tier is tried, largest slot first, before the next tier: value and specs go before any
  // text is cut, and the SVGs (what a person looks at) go last.
  const tiers: Shrinkable[][] = [
    [dropSlot(o, 'value', 'value')],
    charts
      .filter((c) => c.svg !== undefined)
      .map((c, i) => dropSlot(c as Record<string, unknown>, 'spec', `charts[${i}].spec`)),
    [
      ...tables.map(([t, f]) => rowsSlot(t, f)),
      stringSlot(o, 'stdout', 'stdout'),
      stringSlot(o, 'stderr', 'stderr'),
      stringSlot(o, 'valueText', 'valueText'),
      ...(o.error
        ? [
            stringSlot(o.error as Record<string, unknown>, 'stack', 'error.stack'),
            stringSlot(o.error as Record<string, unknown>, 'message', 'error.message'),
          ]
        : []),
      ...charts.map((c, i) => dropSlot(c as Record<string, unknown>, 'spec', `charts[${i}].spec`)),
    ],
    charts.map((c, i) =>
      dropSlot(
        c as Record<string, unknown>,
        'svg',
        `charts[${i}].svg`,
        () => (c.svgError = 'The SVG was dropped to fit the capsule log byte cap.'),
      ),
    ),
    [
      dropSlot(o, 'displays', 'displays'),
      dropSlot(o, 'table', 'table'),
      dropSlot(o, 'charts', 'charts'),
      dropSlot(o, 'error', 'error'),
    ],
  ];
  const fields = new Set<string>();
  let size = originalBytes;
  for (const tier of tiers) {
    while (size > maxBytes) {
      const slot = tier.filter((s) => s.size() > 0).sort((a, b) => b.size() - a.size())[0];
      if (!slot || !slot.shrink(size - maxBytes)) break;
      fields.add(slot.field);
      size = bytesOf(o);
    }
  }
  o.cut = { maxBytes, originalBytes, fields: [...fields] };
  return o;
}
