// A real server on port 0 for integration tests, on the given database, sending mail to the
// given SMTP receiver.
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/log';
import { start, type RunningServer, type StartOptions } from '../../src/main';

export interface TestServerOptions extends StartOptions {
  databaseUrl: string;
  smtpUrl?: string;
  env?: Record<string, string>;
}

export async function startTestServer(options: TestServerOptions): Promise<RunningServer> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: options.databaseUrl,
    SMTP_URL: options.smtpUrl,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    STATIC_DIR: 'dist',
    ...options.env,
  });
  return start(config, { log: options.log ?? createLogger(config.logLevel), clock: options.clock });
}
