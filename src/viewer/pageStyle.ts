/** The page's CSS (inline, under the CSP nonce): layout, notebook cells, highlight.js colours, print. */
export const PAGE_STYLE = `
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa;--bad:#cf222e;--badbg:#ffebe9;--ok:#1a7f37;--okbg:#dafbe1;--warn:#9a6700;--warnbg:#fff8c5;--acc:#0969da}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
.sb-top{display:flex;gap:12px;align-items:baseline;padding:10px 18px;border-bottom:1px solid var(--line);background:var(--soft)}
.sb-top h1{font-size:16px;margin:0}
.sb-top .sb-meta{color:var(--muted);font-size:12px}
.sb-layout{display:flex;min-height:calc(100vh - 45px)}
.sb-side{width:260px;flex:none;border-right:1px solid var(--line);padding:10px;overflow:auto}
.sb-side h2{font-size:12px;text-transform:uppercase;color:var(--muted);margin:4px 0 8px}
.sb-side ul{list-style:none;margin:0;padding:0}
.sb-side li a{display:block;padding:6px 8px;border-radius:6px;color:var(--fg);text-decoration:none;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.sb-side li a:hover{background:var(--soft)}
.sb-side li a[aria-current="page"]{background:#ddf4ff;font-weight:600}
.sb-side small{display:block;color:var(--muted);font-weight:400}
.sb-main{flex:1;min-width:0;padding:14px 18px;max-width:1100px}
.sb-run{border:1px solid var(--line);border-radius:8px;margin:0 0 18px;overflow:hidden;background:var(--bg)}
.sb-run.sb-new{box-shadow:0 0 0 2px var(--acc)}
.sb-run-head{display:flex;flex-wrap:wrap;gap:10px;align-items:center;padding:6px 10px;background:var(--soft);border-bottom:1px solid var(--line);font-size:12px;color:var(--muted)}
.sb-seq{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;color:var(--fg);font-weight:600}
.sb-badge{display:inline-block;padding:0 7px;border-radius:10px;font-size:11px;font-weight:600;line-height:18px}
.sb-ok{background:var(--okbg);color:var(--ok)}
.sb-bad{background:var(--badbg);color:var(--bad)}
.sb-synth{background:var(--warnbg);color:var(--warn);border:1px solid #d4a72c}
.sb-line{margin-left:auto}
.sb-replay{font:inherit;font-size:12px;padding:1px 10px;border:1px solid var(--line);border-radius:6px;background:var(--bg);cursor:pointer}
.sb-replay-out{font-weight:600}
.sb-replay-out.sb-match{color:var(--ok)}
.sb-replay-out.sb-mismatch{color:var(--bad)}
.sb-code{font:12.5px/1.55 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;padding:6px 0;overflow-x:auto;background:#fbfcfd}
.sb-ln{display:flex;white-space:pre}
.sb-no{flex:none;width:3.5em;padding-right:10px;text-align:right;color:#8c959f;user-select:none}
.sb-ln code{font:inherit}
.sb-err-line{background:var(--badbg)}
.sb-err-line .sb-no{color:var(--bad);font-weight:700}
.sb-error{margin:2px 10px 6px 3.5em;padding:6px 10px;border-left:3px solid var(--bad);background:#fff5f5;font:13px/1.45 system-ui,sans-serif;white-space:normal}
.sb-outputs > .sb-error{margin:8px 10px}
.sb-error-head{color:var(--muted);font-size:12px}
.sb-error-msg{color:var(--bad);white-space:pre-wrap;word-break:break-word}
.sb-hint{margin-top:3px;white-space:pre-wrap}
.sb-outputs{padding:8px 10px}
.sb-out{margin:6px 0}
.sb-label{font-size:11px;color:var(--muted);text-transform:uppercase}
pre{margin:2px 0;padding:6px 8px;background:var(--soft);border-radius:6px;font:12.5px/1.45 ui-monospace,Menlo,monospace;white-space:pre-wrap;word-break:break-word;max-height:480px;overflow:auto}
.sb-more{color:var(--muted);font-style:italic}
.sb-older{margin:12px 0;text-align:center}.sb-older button{padding:6px 14px}
.sb-note{margin:6px 0;padding:4px 8px;color:var(--muted);background:var(--soft);border-radius:6px;font-size:12px}
.sb-table{margin:8px 0}
.sb-table-head{font-size:12px;color:var(--muted)}
.sb-caption{font-weight:600;color:var(--fg)}
.sb-scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:12.5px;margin-top:3px}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top;max-width:420px;overflow:hidden;text-overflow:ellipsis}
th{background:var(--soft)}
.sb-sort{font:inherit;font-weight:600;border:0;background:none;padding:0;cursor:pointer;color:var(--fg)}
th[aria-sort="ascending"] .sb-sort::after{content:" ▲"}
th[aria-sort="descending"] .sb-sort::after{content:" ▼"}
td.sb-num{text-align:right;font-variant-numeric:tabular-nums}
td.sb-null{color:#8c959f;font-style:italic}
.sb-pager{margin-top:4px;font-size:12px;color:var(--muted)}
.sb-pager button{font:inherit;border:1px solid var(--line);background:var(--bg);border-radius:6px;padding:0 8px;cursor:pointer}
.sb-chart{margin:8px 0;overflow-x:auto}
.sb-chart figcaption{font-size:12px;color:var(--muted)}
.sb-chart svg{max-width:100%;height:auto}
.sb-empty{color:var(--muted);padding:30px;text-align:center}
.sb-report .sb-main{margin:0 auto}
.hljs-keyword,.hljs-built_in{color:#cf222e}.hljs-string,.hljs-regexp{color:#0a3069}.hljs-number,.hljs-literal{color:#0550ae}
.hljs-comment{color:#6e7781;font-style:italic}.hljs-title,.hljs-title.function_{color:#8250df}.hljs-attr,.hljs-property{color:#0550ae}
.hljs-variable,.hljs-params{color:#953800}.hljs-operator,.hljs-punctuation{color:#1f2328}
@media print{
 .sb-side,.sb-replay,.sb-replay-out,.sb-pager button,.sb-sort::after{display:none!important}
 .sb-layout{display:block;min-height:0}.sb-main{max-width:none;padding:0}
 .sb-run{overflow:visible;border-color:#999;break-inside:auto}
 .sb-run-head{break-after:avoid}
 .sb-ln,tr,.sb-chart,.sb-error,.sb-out{break-inside:avoid}
 pre{max-height:none;overflow:visible}
 .sb-code,.sb-scroll,.sb-chart{overflow:visible}.sb-ln{white-space:pre-wrap}
 .sb-top{background:none}
}
`;
