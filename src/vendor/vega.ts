// vega and vega-lite, bundled into this one file at build time (scripts/build-vendor.mjs): the
// chart renderer then needs neither package installed (they and their ~40 d3 modules are ~24 MB
// of node_modules for ~0.8 MB of code, and vega-lite 6 declares Node >= 22, an EBADENGINE
// warning on every Node 20 install).
export * as vega from 'vega';
export { compile } from 'vega-lite';
