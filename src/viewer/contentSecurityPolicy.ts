/**
 * The Content-Security-Policy of every viewer page and report: nothing loads or runs unless it is
 * ours (the one `<style>` and `<script>` carry the nonce); images only as data: URLs; the live
 * page may talk to its own server (`connect-src 'self'`), a report to nothing at all.
 * @example contentSecurityPolicy(nonce, 'report')
 */
export function contentSecurityPolicy(nonce: string, mode: 'live' | 'report'): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    'img-src data:',
    `connect-src ${mode === 'live' ? "'self'" : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
    ...(mode === 'live' ? ["frame-ancestors 'none'"] : []), // not allowed in a <meta> policy
  ].join('; ');
}
