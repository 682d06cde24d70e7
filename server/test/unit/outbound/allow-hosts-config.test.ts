// OUTBOUND_ALLOW_HOSTS (docs/operations.md, for tests only): exact host:port entries, or a clear
// configuration error.
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/config';

describe('OUTBOUND_ALLOW_HOSTS', () => {
  it('is empty unless set', () => {
    expect(loadConfig({}).outboundAllowHosts).to.deep.equal([]);
  });

  it('reads comma-separated host:port entries, lower-cased', () => {
    expect(loadConfig({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1:4123, Push.Local.Test:8080,[::1]:9000' }).outboundAllowHosts).to.deep.equal(['127.0.0.1:4123', 'push.local.test:8080', '[::1]:9000']);
  });

  it('refuses an entry without a port, a URL or a pattern', () => {
    for (const raw of ['127.0.0.1', 'http://127.0.0.1:80', '*.example.com:443', '::1:80']) {
      expect(() => loadConfig({ OUTBOUND_ALLOW_HOSTS: raw }), raw).to.throw(ConfigError, /host:port/);
    }
  });
});
