// LINK_PREVIEWS (docs/operations.md): on unless set to off; anything else a configuration error.
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/config';

describe('LINK_PREVIEWS', () => {
  it('is on by default, and on or off as set', () => {
    expect(loadConfig({}).linkPreviews).to.equal(true);
    expect(loadConfig({ LINK_PREVIEWS: 'off' }).linkPreviews).to.equal(false);
    expect(loadConfig({ LINK_PREVIEWS: ' ON ' }).linkPreviews).to.equal(true);
  });

  it('refuses anything but on and off', () => {
    expect(() => loadConfig({ LINK_PREVIEWS: 'no' })).to.throw(ConfigError, /on or off/);
  });
});
