// `npm run bench` measure: tables of 1M/5M(/20M) rows beside DuckDB and pandas (bench/scale.mjs).
import '../scale.mjs';
