import crypto from 'node:crypto';
import { expect } from 'chai';
import { iceServersFor, turnCredentials } from '../../../src/features/calls/turn-credentials';

const settings = {
  stunUrls: ['stun:stun.example.test:3478'],
  turnUrls: ['turn:turn.example.test:3478?transport=udp', 'turn:turn.example.test:3478?transport=tcp'],
  turnSecret: 'north-wind',
  turnTtlSeconds: 600,
};

describe('TURN REST API credentials', () => {
  it('name the user and expire TURN_TTL seconds from now', () => {
    const { username } = turnCredentials(42, 'north-wind', 600, 1_700_000_000_500);
    expect(username).to.equal('1700000600:42');
  });

  it('are the base64 HMAC-SHA1 of the username keyed with the shared secret, as coturn checks them', () => {
    const { username, credential } = turnCredentials(7, 'north-wind', 3600, 1_700_000_000_000);
    const expected = crypto.createHmac('sha1', 'north-wind').update(username).digest('base64');
    expect(credential).to.equal(expected);
    // A fixed vector, so a change of algorithm or encoding cannot pass unnoticed.
    expect(turnCredentials(1, 'secret', 60, 0)).to.deep.equal({ username: '60:1', credential: crypto.createHmac('sha1', 'secret').update('60:1').digest('base64') });
  });

  it('differ between users and between secrets', () => {
    const a = turnCredentials(1, 'one', 60, 0).credential;
    expect(turnCredentials(2, 'one', 60, 0).credential).to.not.equal(a);
    expect(turnCredentials(1, 'two', 60, 0).credential).to.not.equal(a);
  });
});

describe('ICE servers for a caller', () => {
  it('list the STUN servers, then the TURN servers with that user’s credentials', () => {
    const servers = iceServersFor(settings, 9, 1_000_000);
    expect(servers).to.have.length(2);
    expect(servers[0]).to.deep.equal({ urls: settings.stunUrls });
    expect(servers[1].urls).to.deep.equal(settings.turnUrls);
    expect(servers[1].username).to.equal('1600:9');
    expect(servers[1].credential).to.equal(turnCredentials(9, 'north-wind', 600, 1_000_000).credential);
  });

  it('leave out TURN when no secret is configured, since every allocation would be refused', () => {
    expect(iceServersFor({ ...settings, turnSecret: null }, 9, 0)).to.deep.equal([{ urls: settings.stunUrls }]);
  });

  it('are empty when nothing is configured', () => {
    expect(iceServersFor({ stunUrls: [], turnUrls: [], turnSecret: null, turnTtlSeconds: 60 }, 1, 0)).to.deep.equal([]);
  });
});
