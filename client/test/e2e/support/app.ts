// One running product for a browser suite: the real server on port 0 serving the built client
// (dist/: run `make build` first), a fresh SQLite database, a real SMTP receiver, and Chromium.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningServer } from '../../../../server/src/main';
import { SmtpReceiver } from '../../../../server/test/support/smtp';
import { startTestServer } from '../../../../server/test/support/test-server';
import { ko } from '../../../src/i18n/ko';
import { launchChromium, requireChromium, type LaunchOptions } from './browser';

const DIST_INDEX = path.resolve(__dirname, '../../../../dist/index.html');

export interface E2eOptions extends LaunchOptions {
  /** Extra server environment (e.g. OAuth endpoints, TURN settings). */
  env?: Record<string, string>;
}

export interface E2eApp {
  server: RunningServer;
  smtp: SmtpReceiver;
  browser: Browser;
  /** The address users reach: PUBLIC_URL, so the server's Origin check accepts the browser. */
  baseUrl: string;
  /** A fresh browser context (its own cookies and local storage: one user) with one page. */
  openUser(): Promise<{ context: BrowserContext; page: Page }>;
  /** `baseUrl` + path. */
  url(pathname: string): string;
  /** A fresh context for `user`, logged in through the login screen and on /chat-list. */
  signIn(user: { email: string; password: string }): Promise<Page>;
}

/**
 * Registers before/after hooks on the current describe and returns the app, filled in by
 * `before`. Contexts opened with openUser() are closed after each test.
 */
export function useE2eApp(options: E2eOptions = {}): E2eApp {
  const app = {} as E2eApp;
  let dbDir = '';
  const contexts: BrowserContext[] = [];

  before(async function () {
    requireChromium(this);
    if (!fs.existsSync(DIST_INDEX)) throw new Error(`the client is not built (${DIST_INDEX} missing): run make build`);
    dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-e2e-'));
    app.smtp = await new SmtpReceiver().start();
    app.server = await startTestServer({
      databaseUrl: `sqlite:${path.join(dbDir, 'e2e.sqlite3')}`,
      smtpUrl: app.smtp.url,
      env: options.env,
    });
    app.baseUrl = app.server.config.publicUrl;
    app.browser = await launchChromium(options);
    app.url = (pathname) => new URL(pathname, app.baseUrl).toString();
    app.openUser = async () => {
      const context = await app.browser.newContext({ baseURL: app.baseUrl, locale: 'ko-KR' });
      contexts.push(context);
      const page = await context.newPage();
      forwardPageErrors(page);
      return { context, page };
    };
    app.signIn = async (user) => {
      const { page } = await app.openUser();
      await page.goto(app.url('/login'));
      await page.getByLabel(ko.login.email).fill(user.email);
      await page.getByLabel(ko.login.password, { exact: true }).fill(user.password);
      await page.getByLabel(ko.login.password, { exact: true }).press('Enter');
      await page.waitForURL('**/chat-list', { timeout: 30_000 });
      return page;
    };
  });

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close().catch(() => {})));
  });

  after(async () => {
    await app.browser?.close().catch(() => {});
    await app.server?.stop();
    await app.smtp?.stop();
    if (dbDir) fs.rmSync(dbDir, { recursive: true, force: true });
  });

  return app;
}

/** Uncaught errors in the page show up in the test output instead of vanishing. */
function forwardPageErrors(page: Page): void {
  page.on('pageerror', (error) => console.error(`  [page error] ${error.message}`));
  if (process.env.E2E_DEBUG) page.on('console', (message) => console.log(`  [page ${message.type()}] ${message.text()}`));
}
