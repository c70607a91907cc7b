/**
 * Vitest global set-up (main config): one headless Chromium for the whole run. It is started here as a
 * playwright browser server, and every test file's `launchChromium()` (browser.ts) connects to it instead of
 * starting a Chromium of its own (each file still gets its own contexts and pages, closed by the file).
 * Nothing is started when Chromium is not installed (the browser tests skip). Lighthouse (the quiet pass)
 * starts its own Chromium with a debugging port, as it needs.
 */
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS, haveBrowser } from './browser.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** the run's Chromium (a playwright browser server's WebSocket endpoint), or '' when there is none */
    browserWs: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: BrowserServer | null = null;
  if (haveBrowser) server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, host: '127.0.0.1' });
  project.provide('browserWs', server?.wsEndpoint() ?? '');
  return async () => {
    await server?.close();
  };
}
