// Remote data: the columns a run names are fetched together before it starts (prefetch), on the
// holder's own thread; a column that fails there is left to its first touch, which reports it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDataDir, writeDataDir } from '../../../../src/data/dataDir.js';
import { DataError } from '../../../../src/data/errors.js';
import { openDataset } from '../../../../src/data/openDataset.js';
import { resolveDataSource } from '../../../../src/data/resolveDataSource.js';
import { openRemoteDataset } from '../../../../src/data/remote/openRemoteDataset.js';
import { startDataFolderServer, type DataFolderServer } from '../../../helpers/dataFolderServer.js';
import { decode, tempDir } from '../helpers.js';

let folder: string;
let server: DataFolderServer;
let manifest: { columns: Array<{ name: string; file: string; bytes: number }> };
const fileOf = (name: string) => `/${manifest.columns.find((c) => c.name === name)!.file}`;

beforeAll(async () => {
  folder = join(tempDir('sbt-prefetch-src-'), 'data');
  await writeDataDir(folder, resolveDataSource({ cacheDir: tempDir(), env: {} }), openDataset);
  manifest = JSON.parse(readFileSync(join(folder, 'sbirtools-data.json'), 'utf8'));
  server = await startDataFolderServer(folder);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

async function open(faults: Parameters<DataFolderServer['faults']>[0] = {}) {
  await server.faults(faults);
  await server.clear();
  return openRemoteDataset(server.url, tempDir('sbt-prefetch-cache-'), {}, {});
}

describe('remote data: prefetch of the columns a run names', () => {
  it('fetches the named columns at once; their first touch then makes no request and reads the same values', async () => {
    const ds = await open();
    await ds.prefetch(['Agency', 'Award Amount', 'groupby', 'not a column']);
    const log = (await server.log()).map((r) => r.path);
    expect(log.slice(1).sort()).toEqual([fileOf('Agency'), fileOf('Award Amount')].sort());
    const local = openDataDir(folder);
    for (const name of ['Agency', 'Award Amount'])
      expect(decode(ds.loadColumn(name))).toEqual(decode(local.loadColumn(name)));
    expect((await server.log()).length).toBe(log.length);
    await ds.prefetch(['Agency']); // fetched already: nothing more
    expect((await server.log()).length).toBe(log.length);
  });

  it('a column that fails to prefetch is not an error there: its first touch fetches it again and reports the failure', async () => {
    const ds = await open({ [fileOf('City')]: { status: 404 } });
    await expect(ds.prefetch(['City'])).resolves.toBeUndefined();
    let err: unknown;
    try {
      ds.loadColumn('City');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DataError);
    expect({ code: (err as DataError).code, status: (err as DataError).status }).toEqual({
      code: 'DATA_FETCH_FAILED',
      status: 404,
    });
  });

  it('a body whose hash differs is refused by the prefetch too: the first touch fetches again', async () => {
    const ds = await open({ [fileOf('Company')]: { corrupt: true } });
    await ds.prefetch(['Company']);
    await server.faults({});
    expect(decode(ds.loadColumn('Company'))).toEqual(decode(openDataDir(folder).loadColumn('Company')));
  });
});
