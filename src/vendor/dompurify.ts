// DOMPurify, bundled into this file at build time (scripts/build-vendor.mjs). It still needs a DOM
// on the server: jsdom, an optional peer that only the viewer and the report load (27 MB).
export { default as createDOMPurify } from 'dompurify';
