import { run } from '../sandbox/sandbox.js';
import { SbirtoolsError } from '../core/errors.js';
import type { Pool } from '../sandbox/pool.js';
import type { SandboxOptions } from '../sandbox/options.js';
import type { DataCard } from '../../schema/dataCard.js';
import { toolDescription } from '../sandbox/toolDescription.js';

/** The data card as the surfaces show it: text for people and models, JSON for programs. */
export interface DataCardView {
  /** The card's summary: rows, source, every column with type, nulls, distinct count, top values or range. */
  markdown: string;
  json: DataCard;
}

/** What decides which data the card describes. */
export type CardOptions = Pick<SandboxOptions, 'dataPath' | 'cacheDir' | 'isolation'> & { pool?: Pool | undefined };

/**
 * The data card of award_data, computed where the data already lives: `describeData()` runs in a
 * sandbox (the same function the guest calls), so the host never loads the table a second time.
 * @throws {SbirtoolsError} when the card cannot be computed; data errors keep their code (DATA_NOT_FOUND...).
 * @example const { markdown } = await loadDataCard({ dataPath: 'award_data.csv' });
 */
export async function loadDataCard(options: CardOptions = {}): Promise<DataCardView> {
  const { dataPath, cacheDir, isolation, pool } = options;
  // Generous limits: the card reads every column once; the user's preset governs their own runs.
  const result = await run('describeData()', {
    preset: 'permissive',
    ...(dataPath ? { dataPath } : {}),
    ...(cacheDir ? { cacheDir } : {}),
    ...(isolation ? { isolation } : {}),
    ...(pool ? { pool } : {}),
  });
  const card = result.value as DataCard | undefined;
  if (!result.ok || !card || typeof card.summary !== 'string' || !Array.isArray(card.columns)) {
    const why = result.error ? `${result.error.type}: ${result.error.message}` : 'describeData() returned no card';
    throw new SbirtoolsError('INTERNAL_ERROR', `Could not compute the data card of award_data (${why}).`);
  }
  return { markdown: card.summary, json: card };
}

/**
 * The generated description of the run_analysis tool (src/result/toolDescription.ts) for this data.
 * @example const description = await defaultToolDescription({});
 */
export async function defaultToolDescription(options: CardOptions = {}): Promise<string> {
  return toolDescription((await loadDataCard(options)).json);
}

/**
 * The data card of award_data, from the host: the same card `describeData()` returns inside the
 * sandbox (row count; each column's type, null rate, distinct count, top values or min/max, date
 * range; whether the data is the synthetic sample or a download, with its date).
 * @throws {SbirtoolsError} when the card cannot be computed (a data error keeps its code).
 * @example const card = await describeData(); console.log(card.summary);
 */
export async function describeData(options: CardOptions = {}): Promise<DataCard> {
  return (await loadDataCard(options)).json;
}
