// highlight.js ships types for its main entry only; its core and language files have the same shapes.
declare module 'highlight.js/lib/core' {
  import hljs from 'highlight.js';
  export default hljs;
}
declare module 'highlight.js/lib/languages/javascript' {
  import type { LanguageFn } from 'highlight.js';
  const language: LanguageFn;
  export default language;
}
