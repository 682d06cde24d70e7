import { expect } from 'chai';
import { forEachDatabase } from '../support/databases';
import { startTestServer } from '../support/test-server';
import { uwsImplementation, type RunningServer } from '../../src/main';
import { ApiClient } from '../support/api-client';

describe('the uWebSockets.js implementation', () => {
  it('is the native binary, not the slow JavaScript fallback', () => {
    expect(uwsImplementation()).to.equal('native');
  });
});

forEachDatabase('GET /healthz', (db) => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ databaseUrl: db.url() });
  });
  after(async () => {
    await server?.stop();
  });

  it('answers 200 after a database round trip', async () => {
    const res = await new ApiClient(server.url).get('/healthz');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ok' });
  });

  it('answers 503 when the database is unreachable', async () => {
    const broken = await startTestServer({ databaseUrl: db.url() });
    await broken.db.destroy();
    try {
      const res = await new ApiClient(broken.url).get('/healthz');
      expect(res.status).to.equal(503);
    } finally {
      await broken.stop().catch(() => {});
    }
  });

  it('refuses an unknown API path with 404 JSON', async () => {
    const res = await new ApiClient(server.url).get('/api/nope');
    expect(res.status).to.equal(404);
    expect(res.body.error).to.equal('not_found');
  });
});
