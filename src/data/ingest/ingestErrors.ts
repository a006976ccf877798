import { DataError } from '../errors.js';
import { sniffNotCsv, type ByteSourceStats } from './byteSource.js';

/** The DataError for a failed read of the input (a missing file, a folder, no permission), or `err` itself. */
export function readError(err: unknown, label: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    return new DataError('DATA_NOT_FOUND', `CSV file not found: ${label}. Check the path (or SBIRTOOLS_CSV_PATH).`, {
      cause: err,
    });
  }
  if (code === 'EISDIR' || code === 'EACCES' || code === 'EPERM' || code === 'EIO') {
    return new DataError('DATA_READ_ERROR', `Cannot read ${label} (${code}). Pass a readable CSV file.`, {
      cause: err,
    });
  }
  return err;
}

/** DATA_EMPTY: the input holds no header row. */
export function emptyError(label: string): DataError {
  return new DataError('DATA_EMPTY', `${label} is empty: a CSV needs at least a header row naming its columns.`);
}

/** DATA_NOT_CSV when the first chunk of input is binary, HTML or mostly invalid UTF-8. */
export function checkFirstChunk(data: Buffer, stats: ByteSourceStats, label: string): void {
  const why = sniffNotCsv(data);
  if (why || stats.replacedInvalidUtf8 > data.length / 100) {
    throw new DataError(
      'DATA_NOT_CSV',
      `${label} is not a CSV file: ${why ?? 'it is mostly invalid UTF-8 (binary data)'}. Pass a comma-separated text file with a header row.`,
    );
  }
}
