/**
 * Headless Chromium for the page tests: the system's /usr/bin/chromium (Debian's package; PHYSPAY_CHROMIUM
 * names another) through playwright-core, so no browser is ever downloaded. Tests skip their browser part
 * with `describe.skipIf(!haveBrowser)` when it is absent. Screenshots and reports go to test-output/
 * (git-ignored).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { inject } from 'vitest';

export const CHROMIUM = process.env.PHYSPAY_CHROMIUM ?? '/usr/bin/chromium';
export const haveBrowser = existsSync(CHROMIUM);

/** Headless, no sandbox (containers), nothing fetched in the background. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** The run's shared Chromium (browser-global.ts), or '' outside a run that started one. */
function sharedBrowser(): string {
  try {
    return inject('browserWs') ?? '';
  } catch {
    return '';
  }
}

/**
 * The system Chromium: a connection to the run's shared one when the run started one (browser-global.ts),
 * else a Chromium of its own; `extraArgs` always get their own. The caller closes it (for a connection,
 * that closes the caller's contexts and disconnects; the shared browser runs on).
 */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  const ws = extraArgs.length ? '' : sharedBrowser();
  if (ws) return chromium.connect(ws);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/** Launch the system Chromium with a profile folder of ours (e.g. to read DevToolsActivePort), plus `extraArgs`. */
export function launchChromiumProfile(profile: string, extraArgs: string[] = []): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/** test-output/<name>/, created: where a browser test writes screenshots and reports. */
export function outputDir(name = 'pages'): string {
  const dir = join(process.cwd(), 'test-output', name);
  mkdirSync(dir, { recursive: true });
  return dir;
}
