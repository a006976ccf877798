import { SbirtoolsError } from './errors.js';

/** An optional peer dependency a feature needs is not installed (or does not load). */
export class OptionalDependencyError extends SbirtoolsError {
  constructor(
    readonly packageName: string,
    readonly feature: string,
    cause: unknown,
  ) {
    super(
      'OPTIONAL_DEPENDENCY_MISSING',
      `${feature} needs the optional package ${packageName}, which is not installed here: run \`npm install ${packageName}\` ` +
        `(sbirtools keeps it out of its own install; README "Install" lists the optional parts). It did not load: ${firstLine(cause)}`,
    );
  }
}

/**
 * Import an optional peer dependency on first use, or throw {@link OptionalDependencyError} naming
 * the package, the feature that needs it and the install command.
 * @example const { createClient } = await importOptional('redis', 'serve --redis', () => import('redis'));
 */
export async function importOptional<T>(packageName: string, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    const code = (err as { code?: string })?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND')
      throw new OptionalDependencyError(packageName, feature, err);
    throw err;
  }
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0] ?? '';
}
