// The URL finder: the first http(s) link of a message that the outbound guard accepts.
import { expect } from 'chai';
import { Outbound } from '../../../src/outbound';
import { firstPreviewableUrl, MAX_URL_LENGTH, trimUrl, urlsIn } from '../../../src/features/link-previews/url-finder';

const guard = new Outbound({ allowHosts: [] });
const first = (text: string) => firstPreviewableUrl(text, (u) => guard.checkUrl(u));

describe('link previews: the URL finder', () => {
  after(() => guard.close());

  it('finds http and https links, not bare names or other schemes', () => {
    expect(urlsIn('see HTTPS://Example.com/a and http://b.org, ftp://c.org d.com mailto:x@y.z')).to.deep.equal(['HTTPS://Example.com/a', 'http://b.org']);
    expect(urlsIn('https:// nothing')).to.deep.equal([]);
  });

  it('leaves out the punctuation that ends a sentence and brackets the link did not open', () => {
    expect(trimUrl('https://x.org/a.')).to.equal('https://x.org/a');
    expect(trimUrl('https://x.org/a?!')).to.equal('https://x.org/a');
    expect(urlsIn('(see https://x.org/a)')).to.deep.equal(['https://x.org/a']);
    expect(urlsIn('https://en.wikipedia.org/wiki/A_(b).')).to.deep.equal(['https://en.wikipedia.org/wiki/A_(b)']);
    expect(urlsIn('링크는 https://x.org/가나다。')).to.deep.equal(['https://x.org/가나다']);
  });

  it('skips what the guard refuses and answers the first it accepts, normalised', () => {
    expect(first('http://example.com/plain https://127.0.0.1/x https://localhost/y https://u:p@ex.com/ https://Example.com/ok')).to.equal('https://example.com/ok');
    expect(first('http://example.com only')).to.equal(null);
    expect(first('no link at all')).to.equal(null);
    expect(first(`https://example.com/${'a'.repeat(MAX_URL_LENGTH)}`)).to.equal(null);
  });
});
