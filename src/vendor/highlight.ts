// highlight.js's core and its JavaScript grammar, bundled into this file at build time
// (scripts/build-vendor.mjs): 28 KB instead of the 9 MB package with ~190 languages we never load.
export { default as hljs } from 'highlight.js/lib/core';
export { default as javascript } from 'highlight.js/lib/languages/javascript';
