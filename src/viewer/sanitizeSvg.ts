import type { DOMPurify as Purifier } from 'dompurify';

// DOMPurify needs a DOM; on the server its docs recommend jsdom. Both load on the first chart.
// DOMPurify is bundled (src/vendor/dompurify.ts); jsdom (27 MB installed) is an optional peer that
// only pages with charts need: without it a chart is not inlined, and the page says why.
let purifier: Promise<Purifier> | undefined;
let idPrefix = '';

const LOCAL_URL = /^\s*url\(\s*#[A-Za-z0-9_.:-]+\s*\)\s*$/;

async function load(): Promise<Purifier> {
  const [{ JSDOM }, { createDOMPurify }] = await Promise.all([
    import('jsdom').catch((err: unknown) => {
      throw new Error(
        `charts are drawn in the viewer and the report only with the optional package jsdom installed (\`npm install jsdom\`), which sanitizes their SVG; it did not load: ${String((err as Error)?.message ?? err).split('\n')[0]}`,
      );
    }),
    import('../vendor/dompurify.js'),
  ]);
  const purify = createDOMPurify(new JSDOM('').window as never);
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const value = data.attrValue;
    // No external reference of any kind: url(...) may only point inside this SVG.
    if (/url\s*\(/i.test(value) && !LOCAL_URL.test(value)) data.keepAttr = false;
    // Several charts share one page: prefix ids (and references to them) so they cannot collide
    // with each other or clobber the page's own ids.
    if (data.attrName === 'id') data.attrValue = `${idPrefix}${value}`;
    else if (LOCAL_URL.test(value)) data.attrValue = value.replace(/#/, `#${idPrefix}`);
  });
  return purify;
}

/**
 * Start loading jsdom and DOMPurify now (about a second of imports), so the first page with a
 * chart does not wait for them. Safe to call more than once.
 * @example warmSanitizer(); server.listen(port);
 */
export function warmSanitizer(): void {
  (purifier ??= load()).catch(() => (purifier = undefined));
}

/**
 * Sanitize an SVG from the log (guest-influenced) for inlining in a page: DOMPurify's SVG profile,
 * minus everything that can run code, load a resource or restyle the page: scripts, event
 * handlers, `<style>`, `style=`, `class=`, links and `href`, `<image>`, `<use>`, `<foreignObject>`,
 * animations, and any `url()` that is not a local `#id`. Ids get `idPrefix`.
 * @returns the clean `<svg>` markup, or `null` when nothing SVG is left.
 * @example await sanitizeSvg('<svg onload="alert(1)"><rect/></svg>', 'c1-') // '<svg><rect></rect></svg>'
 */
export async function sanitizeSvg(svg: string, prefix: string): Promise<string | null> {
  const purify = await (purifier ??= load());
  idPrefix = prefix; // read by the hook during this synchronous call only
  const clean = purify.sanitize(svg, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: [
      'style',
      'script',
      'a',
      'image',
      'use',
      'foreignObject',
      'animate',
      'animateMotion',
      'animateTransform',
      'set',
      'feImage',
      'iframe',
    ],
    FORBID_ATTR: ['style', 'class', 'href', 'xlink:href', 'src', 'action', 'formaction'],
    ALLOW_DATA_ATTR: false,
  });
  idPrefix = '';
  const trimmed = clean.trim();
  return /^<svg[\s>]/.test(trimmed) ? trimmed : null;
}
