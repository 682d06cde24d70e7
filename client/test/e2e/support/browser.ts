// Debian's Chromium driven by playwright-core (never a downloaded browser). Missing Chromium is
// a loud skip on a developer's machine and a failure under CI=true.
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const IN_CI = process.env.CI === 'true';
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

/** A fake microphone that needs no permission prompt: for the call tests. */
const FAKE_MEDIA_ARGS = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'];

export interface LaunchOptions {
  fakeMedia?: boolean;
  extraArgs?: string[];
}

export function chromiumAvailable(): boolean {
  return fs.existsSync(CHROMIUM_PATH);
}

/** Call in a `before` hook: skips the suite (or fails it under CI) when Chromium is missing. */
export function requireChromium(context: Mocha.Context): void {
  if (chromiumAvailable()) return;
  const message = `Chromium is not installed at ${CHROMIUM_PATH} (apt-get install -y chromium)`;
  if (IN_CI) throw new Error(`${message}: CI must run every browser test`);
  console.warn(`\n  !!! SKIPPING browser tests: ${message}\n`);
  context.skip();
}

export function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...BASE_ARGS, ...(options.fakeMedia ? FAKE_MEDIA_ARGS : []), ...(options.extraArgs ?? [])],
  });
}
