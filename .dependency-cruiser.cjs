// The import rules of docs/architecture.md ("Layers"), checked by `npm run check:imports` (part of
// `npm test`). Each rule's name is what a failing run prints; its comment says what to do instead.
// Surfaces are cli, mcp, server, adapters, viewer and capsule.
const SURFACES = '^src/(cli|mcp|server|adapters|viewer|capsule)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules must not import each other in a circle (type imports count): move the shared part into its own file.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'schema-imports-only-schema',
      severity: 'error',
      comment: 'schema/ is the floor every layer stands on: it imports zod and itself, nothing from src/ or prelude/.',
      from: { path: '^schema/' },
      to: { path: '^(src|prelude)/' },
    },
    {
      name: 'prelude-imports-only-schema',
      severity: 'error',
      comment:
        'prelude/ runs inside the isolate: it may import schema/ (types and pure code) but nothing from src/ and no node: module.',
      from: { path: '^prelude/' },
      to: { path: '^src/' },
    },
    {
      name: 'prelude-no-node-builtins',
      severity: 'error',
      comment: 'prelude/ runs inside the isolate, where no node: module exists.',
      from: { path: '^prelude/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'host-never-imports-the-prelude',
      severity: 'error',
      comment:
        'The host does not import prelude/ (it is bundled for the isolate). Code both sides need goes into schema/.',
      from: { path: '^src/' },
      to: { path: '^prelude/' },
    },
    {
      name: 'core-imports-only-schema',
      severity: 'error',
      comment: 'src/core/ (errors, package paths) is used by every host layer, so it imports only schema/.',
      from: { path: '^src/core/' },
      to: { path: '^src/(?!core/)' },
    },
    {
      name: 'policy-imports-core-and-schema',
      severity: 'error',
      comment: 'src/policy/ is pure functions over the AST: it imports only core/ and schema/.',
      from: { path: '^src/policy/' },
      to: { path: '^src/(?!policy/|core/)' },
    },
    {
      name: 'data-imports-core-and-schema',
      severity: 'error',
      comment:
        'src/data/ is below the runtime: it imports only core/ and schema/ (the runtime and the facade call it, never the other way).',
      from: { path: '^src/data/' },
      to: { path: '^src/(?!data/|core/)' },
    },
    {
      name: 'result-imports-policy-core-schema',
      severity: 'error',
      comment:
        'src/result/ shapes a raw outcome (schema/outcome.ts) into a RunResult: it imports policy/, core/, vendor/ and schema/, never runtime/ or the facade.',
      from: { path: '^src/result/' },
      to: { path: '^src/(?!result/|core/|policy/|vendor/)' },
    },
    {
      name: 'runtime-below-the-facade',
      severity: 'error',
      comment:
        'src/runtime/ is called by the facade (src/sandbox/): it may use data/, policy/, core/ and schema/, never result/, the facade or a surface.',
      from: { path: '^src/runtime/' },
      to: { path: '^src/(sandbox|result|cli|mcp|server|adapters|viewer|capsule)/' },
    },
    {
      name: 'engines-below-the-holder',
      severity: 'error',
      comment:
        'An engine (src/runtime/engines/) knows only the engine contract (engines/engineSession.ts); the holder and prepare/ call engines, not the reverse.',
      from: { path: '^src/runtime/engines/' },
      to: { path: '^src/runtime/(holder|prepare)/' },
    },
    {
      name: 'engines-apart',
      severity: 'error',
      comment:
        'The isolated-vm and QuickJS engines do not import each other: what both need goes into src/runtime/engines/ beside the contract.',
      from: { path: '^src/runtime/engines/(isolated-vm|quickjs)/' },
      to: { path: '^src/runtime/engines/(isolated-vm|quickjs)/', pathNot: '^src/runtime/engines/$1/' },
    },
    {
      name: 'prepare-is-engine-neutral',
      severity: 'error',
      comment:
        'src/runtime/prepare/ (policy check + transform) is the same for every engine and for the holder: it imports no engine and no holder module.',
      from: { path: '^src/runtime/prepare/' },
      to: { path: '^src/runtime/(engines|holder)/' },
    },
    {
      name: 'facade-below-the-surfaces',
      severity: 'error',
      comment: 'src/sandbox/ (the facade) is what surfaces call; it never imports a surface.',
      from: { path: '^src/sandbox/' },
      to: { path: SURFACES },
    },
    {
      name: 'surfaces-use-the-facade',
      severity: 'error',
      comment:
        'A surface (cli, mcp, server, adapters, viewer, capsule) imports src/sandbox/, core/, schema/ and other surfaces, never runtime/, data/, result/ or policy/: add what it needs to the facade.',
      from: { path: SURFACES },
      to: { path: '^src/(runtime|data|result|policy)/' },
    },
    {
      name: 'edge-without-node',
      severity: 'error',
      comment:
        'src/edge/ (the Cloudflare Workers module) runs the QuickJS engine without Node: it may use the QuickJS engine and the files beside the engine contract, prepare/, the precheck, result/, policy/, data/ (its portable pack/ files), two body helpers of adapters/, core/ and schema/; never the holder, isolated-vm or a Node surface (scripts/build-worker.mjs also fails on any node: import).',
      from: { path: '^src/edge/' },
      to: { path: '^src/(runtime/holder|runtime/engines/isolated-vm|cli|mcp|server|viewer|capsule|bundle)/' },
    },
    {
      name: 'bundle-is-a-build-tool',
      severity: 'error',
      comment:
        'src/bundle/ writes deployable folders for `sbirtools bundle`: it reads data/ (build-data, the pack format), core/ and the edge pack helper; it never runs code, so no runtime/ or facade.',
      from: { path: '^src/bundle/' },
      to: { path: '^src/(runtime|sandbox|result|policy|cli|mcp|server|adapters|viewer|capsule)/' },
    },
    {
      name: 'vendor-is-third-party-only',
      severity: 'error',
      comment:
        'src/vendor/ lists re-exports of third-party packages that the build bundles (scripts/build-vendor.mjs): it imports nothing of ours.',
      from: { path: '^src/vendor/' },
      to: { path: '^(src|schema|prelude)/', pathNot: '^src/vendor/' },
    },
    {
      name: 'no-public-barrel-inside',
      severity: 'error',
      comment:
        'src/index.ts only lists re-exports for users; inside the package import the module that defines the thing.',
      from: { path: '^(src|schema|prelude)/', pathNot: '^src/index\\.ts$' },
      to: { path: '^src/index\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(^|/)node_modules/|^dist/' },
  },
};
