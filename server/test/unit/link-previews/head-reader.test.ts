// The head reader: what a page says of itself, from its <head> only.
import { expect } from 'chai';
import { CAPS, cleanText, readHead } from '../../../src/features/link-previews/head-reader';

const PAGE = 'https://example.com/a/page.html';

describe('link previews: the head reader', () => {
  it('reads Open Graph first, decoding entities and resolving a relative image', () => {
    const head = readHead(
      `<html><head><title>Title tag</title>
      <meta property="og:title" content="Caf&eacute; &amp; &#xBF;more&#63;">
      <meta property="og:description" content="A   page
         about things">
      <meta property="og:site_name" content="Example">
      <meta property="og:image" content="../img/a.png">
      <meta name="twitter:title" content="Twitter title">
      </head><body></body></html>`,
      PAGE,
    );
    expect(head).to.deep.equal({ title: 'Café & ¿more?', description: 'A page about things', siteName: 'Example', image: 'https://example.com/img/a.png' });
  });

  it('falls back to the Twitter card, then <title> and <meta name=description>', () => {
    expect(readHead('<head><meta name="twitter:title" content="T"><meta name="twitter:image" content="https://cdn.example.com/x.jpg"><title>Tag</title></head>', PAGE))
      .to.include({ title: 'T', image: 'https://cdn.example.com/x.jpg' });
    expect(readHead('<HEAD><TITLE> Only  the\ntag </TITLE><META NAME="Description" CONTENT="Desc"></HEAD>', PAGE))
      .to.deep.equal({ title: 'Only the tag', description: 'Desc', siteName: null, image: null });
  });

  it('stops at </head> or at the first tag of the body', () => {
    expect(readHead('<head><title>Head</title></head><body><meta property="og:title" content="Body"></body>', PAGE).title).to.equal('Head');
    expect(readHead('<title>Head</title><div><meta property="og:title" content="Late"></div>', PAGE).title).to.equal('Head');
    expect(readHead('<p>no head</p><title>Late</title>', PAGE).title).to.equal(null);
  });

  it('keeps only http(s) images and the first of repeated tags', () => {
    expect(readHead('<head><meta property="og:image" content="javascript:alert(1)"></head>', PAGE).image).to.equal(null);
    expect(readHead('<head><meta property="og:image" content="data:image/png;base64,AAAA"></head>', PAGE).image).to.equal(null);
    expect(readHead('<head><meta property="og:title" content="First"><meta property="og:title" content="Second"></head>', PAGE).title).to.equal('First');
  });

  it('caps lengths with an ellipsis, counting characters, not UTF-16 units', () => {
    const long = '가'.repeat(CAPS.title + 50);
    const title = readHead(`<head><title>${long}</title></head>`, PAGE).title!;
    expect([...title]).to.have.length(CAPS.title);
    expect(title.endsWith('…')).to.equal(true);
    expect(cleanText('😀'.repeat(5), 3)).to.equal('😀😀…');
    expect(cleanText('   ', 10)).to.equal(null);
  });
});
