// The outbound guard's address classifier and URL checks, without the network: every notation of
// a private address an attacker tried on push endpoints (docs/operations.md, Outbound requests).
import { expect } from 'chai';
import { Outbound, OutboundRefusedError, refusedAddressReason, type ResolvedAddress } from '../../../src/outbound';

const refusal = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
};

describe('the outbound guard', () => {
  describe('address classifier', () => {
    it('refuses every address that is not public unicast', () => {
      const refused = [
        '127.0.0.1', '127.1.2.3', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.127.255.254',
        '224.0.0.1', '239.255.255.250', '0.0.0.0', '0.1.2.3', '255.255.255.255', '192.0.0.8', '192.0.2.1', '198.18.0.1', '198.51.100.7', '203.0.113.9', '240.0.0.1',
        '::1', '[::1]', '::', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:8.8.8.8', '::7f00:1', '::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b:1::1',
        'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'fec0::1', 'ff02::1', '2002:7f00:1::1', '2002:a00:1::1', '2001::1', '2001:0:4136:e378::1', '2001:db8::1', '100::1',
      ];
      for (const address of refused) expect(refusedAddressReason(address), address).to.be.a('string');
    });

    it('lets public addresses through, v4 and v6', () => {
      for (const address of ['8.8.8.8', '142.250.196.10', '1.1.1.1', '100.128.0.1', '2001:4860:4860::8888', '[2607:f8b0:4004:c07::5f]', '2a00:1450::1']) {
        expect(refusedAddressReason(address), address).to.equal(null);
      }
    });

    it('takes no loose notation for an address: those are for the URL parser to normalise', () => {
      for (const raw of ['2130706433', '0x7f000001', '0177.0.0.1', '127.1', 'localhost', '']) expect(refusedAddressReason(raw), raw).to.equal('not an IP address');
    });
  });

  describe('URL checks', () => {
    const guard = new Outbound({ allowHosts: ['127.0.0.1:9999', 'push.local.test:8080'] });

    it('refuses each endpoint form of the attack, in any notation', () => {
      const refused = [
        'http://127.0.0.1:3306/', 'https://127.0.0.1/', 'https://127.0.0.1:6379/', 'https://[::1]/', 'https://[::1]:443/x', 'https://2130706433/', 'https://0177.0.0.1/',
        'https://0x7f.0.0.1/', 'https://0x7f000001/', 'https://127.1/', 'https://[::ffff:127.0.0.1]/', 'https://[::ffff:a00:1]/', 'https://169.254.169.254/latest/meta-data/',
        'https://10.0.0.1/', 'https://100.64.0.1/', 'https://[fd00::1]/', 'https://[fe80::1]/', 'https://[2002:7f00:1::]/', 'https://[64:ff9b::7f00:1]/', 'https://0.0.0.0/',
        'https://user:pass@push.example.com/x', 'https://user@push.example.com/x', 'https://:pass@push.example.com/x', 'http://push.example.com/x', 'ftp://push.example.com/x',
        'https://localhost/', 'https://localhost./', 'https://a.localhost/', 'https://intranet/', 'https://printer.local/', 'https://db.internal/', 'https://router.home.arpa/',
        'not a url',
      ];
      for (const url of refused) expect(refusal(() => guard.checkUrl(url)), url).to.be.instanceOf(OutboundRefusedError);
    });

    it('lets a public https URL through', () => {
      for (const url of ['https://fcm.googleapis.com/fcm/send/abc', 'https://updates.push.services.mozilla.com/wpush/v2/x', 'https://8.8.8.8/', 'https://[2001:4860:4860::8888]/']) {
        expect(guard.checkUrl(url).toString(), url).to.equal(new URL(url).toString());
      }
    });

    it('lets allow-listed host:port entries through on http, and no other port of them', () => {
      expect(guard.checkUrl('http://127.0.0.1:9999/push/1').port).to.equal('9999');
      expect(guard.checkUrl('http://push.local.test:8080/').hostname).to.equal('push.local.test');
      expect(refusal(() => guard.checkUrl('http://127.0.0.1:9998/'))).to.be.instanceOf(OutboundRefusedError);
      expect(refusal(() => guard.checkUrl('http://user:pw@127.0.0.1:9999/')), 'user info even when allow-listed').to.be.instanceOf(OutboundRefusedError);
    });
  });

  describe('resolution', () => {
    const answering = (addresses: string[], calls: string[] = []) => (hostname: string): Promise<ResolvedAddress[]> => {
      calls.push(hostname);
      return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
    };
    const rejection = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

    it('refuses a name when any address it resolves to is not public', async () => {
      for (const addresses of [['127.0.0.1'], ['93.184.216.34', '10.0.0.1'], ['::ffff:10.0.0.1'], ['169.254.169.254'], ['2606:2800::1', 'fd00::1']]) {
        const guard = new Outbound({ allowHosts: [] }, answering(addresses));
        expect(await rejection(guard.resolve(new URL('https://push.example.com/x'))), addresses.join(',')).to.be.instanceOf(OutboundRefusedError);
      }
    });

    it('answers every address of a public name, resolving it once', async () => {
      const calls: string[] = [];
      const guard = new Outbound({ allowHosts: [] }, answering(['93.184.216.34', '2606:2800::1'], calls));
      expect(await guard.resolve(new URL('https://push.example.com/x'))).to.deep.equal([{ address: '93.184.216.34', family: 4 }, { address: '2606:2800::1', family: 6 }]);
      expect(calls).to.deep.equal(['push.example.com']);
    });

    it('asks no DNS for an IP literal', async () => {
      const calls: string[] = [];
      const guard = new Outbound({ allowHosts: [] }, answering(['127.0.0.1'], calls));
      expect(await guard.resolve(new URL('https://[2001:4860:4860::8888]/'))).to.deep.equal([{ address: '2001:4860:4860::8888', family: 6 }]);
      expect(calls).to.deep.equal([]);
    });
  });
});
