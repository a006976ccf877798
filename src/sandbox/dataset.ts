/** award_data for the surfaces: where it comes from, the download, opening it, and the prebuilt data folder. */
export { downloadData, openDataset, resolveDataSource, DataError, OFFICIAL_CSV_URL } from '../data/index.js';
export { writeDataDir } from '../data/dataDir.js';
export { envValue } from '../data/paths.js';
export { progressBar, type TextOut } from '../data/download/progressBar.js';
