/**
 * Bounds the package test holds the published package to (docs/benchmarks.md "The package" has
 * the measured figures). Each has headroom over today's figure, so a stray folder or a heavy new
 * dependency fails the test instead of slipping into every user's install.
 */
export const PACKAGE_BOUNDS = {
  /** files in the tarball (session 10: 970, one per compiled module of src/ mostly) */
  maxFiles: 1200,
  /**
   * the .tgz itself (session 10: 4.06 MB, the prelude's and holder's fast paths of issue 25;
   * session 14: 4.64 MB, more of them, and docs/benchmarks.md alone 218 KB packed)
   */
  maxTarballBytes: 5_000_000,
  /** `npm install sbirtools` (production) in an empty project: node_modules on disk */
  maxInstallBytes: 60_000_000,
  /** package.json "engines.node": exactly the supported lines (20 is legacy) */
  engines: '^20.19.0 || ^22.12.0 || ^24.0.0 || ^26.0.0',
} as const;
