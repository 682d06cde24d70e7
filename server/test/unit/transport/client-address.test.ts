import { expect } from 'chai';
import { clientAddress } from '../../../src/transport/client-address';

describe('the client address of a request', () => {
  it('is the peer when the peer is not a trusted proxy, whatever X-Forwarded-For says', () => {
    expect(clientAddress('203.0.113.5', '198.51.100.1', [])).to.equal('203.0.113.5');
    expect(clientAddress('203.0.113.5', '198.51.100.1', ['10.0.0.1'])).to.equal('203.0.113.5');
  });

  it('is the right-most untrusted hop behind trusted proxies', () => {
    expect(clientAddress('10.0.0.1', '198.51.100.1', ['10.0.0.1'])).to.equal('198.51.100.1');
    // A client writing its own header cannot hide behind it: the proxy appends the real peer.
    expect(clientAddress('10.0.0.1', '1.2.3.4, 198.51.100.1, 10.0.0.2', ['10.0.0.1', '10.0.0.2'])).to.equal('198.51.100.1');
  });

  it('treats an IPv4-mapped IPv6 peer as its IPv4 address', () => {
    expect(clientAddress('::ffff:10.0.0.1', '198.51.100.1', ['10.0.0.1'])).to.equal('198.51.100.1');
    expect(clientAddress('::FFFF:127.0.0.1', '', [])).to.equal('127.0.0.1');
  });
});
