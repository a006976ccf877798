/** The `code` of the warning sbirtools emits when engine 'auto' falls back to QuickJS. */
export const ENGINE_FALLBACK_WARNING = 'SBIRTOOLS_ENGINE_FALLBACK';

let said = false;
let relay: ((reason: string) => void) | undefined;

/**
 * In a holder process: pass the fallback notice to the host instead of saying it here (a holder's
 * stderr only reaches the host's log tail, where no one looks).
 */
export function relayEngineFallback(to: (reason: string) => void): void {
  relay = to;
}

/**
 * Engine 'auto' found no isolated-vm build and runs code on QuickJS: say so once per process, as a
 * warning with a stable code (`process.on('warning')` sees it; the CLI prints it as one line; the
 * MCP server logs it), naming the reason and the fix.
 * @example noteEngineFallback('isolated-vm: Cannot find module'); // once: (node) [SBIRTOOLS_ENGINE_FALLBACK] ...
 */
export function noteEngineFallback(reason: string): void {
  if (said) return;
  said = true;
  if (relay) return relay(reason);
  process.emitWarning(engineFallbackMessage(reason), { code: ENGINE_FALLBACK_WARNING });
}

/** The notice's text: what happened, why (the addon's load error) and how to get the native engine. */
export function engineFallbackMessage(reason: string): string {
  return (
    `sbirtools: no isolated-vm build loads on Node ${process.version}, so engine 'auto' runs code on the ` +
    `QuickJS WASM engine (same answers, about 10x slower). Why: ${reason}. Fix: ${nativeEngineFix()}. ` +
    `To choose QuickJS and silence this, pass engine: 'quickjs' (CLI: --engine quickjs; env SBIRTOOLS_ENGINE=quickjs).`
  );
}

/** How to get a native engine on this runtime. */
export function nativeEngineFix(): string {
  const versions = process.versions as Record<string, string | undefined>;
  if (versions.bun || versions.deno)
    return 'none on Bun or Deno (isolated-vm is a Node addon); run under Node 22, 24 or 26 for it';
  const major = Number(process.versions.node.split('.')[0]);
  if (major === 20)
    return 'Node 20 is a legacy line: `npm install isolated-vm-legacy@npm:isolated-vm@5.0.4` (compiles; needs python3, make and g++), or move to Node 22, 24 or 26 (prebuilt)';
  if (major >= 26)
    return '`npm install isolated-vm-7@npm:isolated-vm@^7` (prebuilt for Node 24/26), or `npm rebuild isolated-vm-7`';
  return '`npm rebuild isolated-vm` (or `npm install isolated-vm@^6`, prebuilt for Node 22/24 on Linux, macOS and Windows)';
}
