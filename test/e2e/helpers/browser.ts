import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';

/** Debian's chromium (scripts/install-chromium.sh installs it); SBIRTOOLS_CHROMIUM overrides. */
export const CHROMIUM = process.env.SBIRTOOLS_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Why the browser tests cannot run here, or undefined when they can. Under CI=true a missing
 * chromium is a failure, not a skip: .ci/run installs it first.
 */
export function browserUnavailable(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const why = `${CHROMIUM} is missing: run 'sh scripts/install-chromium.sh' (apt-get install chromium) to enable the browser tests`;
  if (process.env.CI) throw new Error(`CI must run the browser tests, but ${why}`);
  return why;
}

/** Headless chromium as root: no sandbox, no GPU, no background traffic, a fresh profile. */
export async function launchBrowser(): Promise<Browser> {
  const { launch } = await import('puppeteer-core');
  return launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: mkdtempSync(join(tmpdir(), 'sbirtools-chromium-')),
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
    defaultViewport: { width: 1280, height: 900 },
  });
}
