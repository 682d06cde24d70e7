import { expect } from 'chai';
import sharp from 'sharp';
import { api } from '@common/api';
import { decodeAttachment } from '@common/events';
import { contentDisposition } from '../../../src/features/attachments/attachments-routes';
import { cleanContentType, cleanFileName, servedType } from '../../../src/features/attachments/attachments-service';
import { rechunk } from '../../../src/features/attachments/blob-store';
import { exifOrientation, stripJpegMetadata } from '../../../src/features/attachments/jpeg-metadata';

async function collect(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const p of source) parts.push(p);
  return Buffer.concat(parts);
}

/** The bytes in pieces of `size`, as an upload may arrive. */
function* pieces(bytes: Buffer, size: number): Iterable<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

describe('attachments: names, types and headers', () => {
  it('keeps a file name without its path or control characters, at most 255 characters', () => {
    expect(cleanFileName('../../etc/passwd')).to.equal('passwd');
    expect(cleanFileName('C:\\Users\\me\\사진.jpg')).to.equal('사진.jpg');
    expect(cleanFileName('a\u0000b\u202ec.txt')).to.equal('abc.txt');
    expect(cleanFileName('')).to.equal('file');
    expect(cleanFileName('..')).to.equal('file');
    expect([...cleanFileName('가'.repeat(300))]).to.have.length(255);
  });

  it('never serves a type a browser would render as a page', () => {
    for (const t of ['text/html', 'application/xhtml+xml', 'image/svg+xml', 'text/javascript', 'application/javascript', 'text/xml', 'multipart/related', 'text/x-anything']) {
      expect(servedType(t), t).to.equal('application/octet-stream');
    }
    for (const t of ['application/pdf', 'text/plain', 'text/csv', 'image/png', 'application/zip']) expect(servedType(t), t).to.equal(t);
    expect(cleanContentType('Text/HTML; charset=utf-8')).to.equal('text/html');
    expect(cleanContentType('not a type')).to.equal('application/octet-stream');
    expect(cleanContentType('')).to.equal('application/octet-stream');
  });

  it('names the file in Content-Disposition in ASCII and in exact UTF-8, quotes and all escaped', () => {
    const header = contentDisposition('attachment', '회의록 "최종".pdf');
    expect(header.startsWith('attachment; filename="___ ____.pdf"; filename*=UTF-8\'\'')).to.equal(true);
    expect(decodeURIComponent(header.split("UTF-8''")[1])).to.equal('회의록 "최종".pdf');
  });

  it('decodes a message\'s attachment only when its addresses are the server\'s own', () => {
    const id = 'Zm9vYmFyYmF6cXV4cXV1eA';
    const good = { attachmentId: id, name: 'a.png', size: 10, contentType: 'image/png', url: api.attachment(id), thumbnailUrl: api.attachmentThumbnail(id), width: 4, height: 3 };
    expect(decodeAttachment(good)).to.deep.equal(good);
    // Ids are opaque 22-character base64url strings: a counter is none.
    expect(decodeAttachment({ ...good, attachmentId: 5, url: '/api/attachments/5' })).to.equal(undefined);
    expect(decodeAttachment({ ...good, attachmentId: '../x', url: api.attachment('../x') })).to.equal(undefined);
    expect(decodeAttachment({ ...good, url: 'https://evil.example/x' })).to.equal(undefined);
    expect(decodeAttachment({ ...good, thumbnailUrl: 'javascript:alert(1)' })).to.not.have.property('thumbnailUrl');
    expect(decodeAttachment({ ...good, size: -1 })).to.equal(undefined);
    expect(decodeAttachment('nope')).to.equal(undefined);
  });
});

describe('attachments: streaming pieces', () => {
  it('regroups chunks of any size into pieces of exactly the given size', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
    const out: Buffer[] = [];
    for await (const p of rechunk(pieces(bytes, 37), 256)) out.push(p);
    expect(out.map((p) => p.length)).to.deep.equal([256, 256, 256, 232]);
    expect(Buffer.concat(out).equals(bytes)).to.equal(true);
  });
});

describe('attachments: JPEG metadata removed as it streams', () => {
  let photo: Buffer;
  before(async () => {
    photo = await sharp({ create: { width: 64, height: 32, channels: 3, background: { r: 1, g: 2, b: 3 } } })
      .jpeg()
      .withExif({ IFD0: { Make: 'SecretCam', Copyright: 'GPS here' } })
      .withMetadata({ orientation: 8 })
      .toBuffer();
  });

  it('removes EXIF but the orientation, whatever the chunk boundaries, leaving the picture as it was', async () => {
    const whole = await collect(stripJpegMetadata([photo]));
    for (const size of [1, 3, 100, 4096]) {
      expect((await collect(stripJpegMetadata(pieces(photo, size)))).equals(whole), `pieces of ${size}`).to.equal(true);
    }
    expect(whole.includes('SecretCam')).to.equal(false);
    expect(whole.includes('GPS here')).to.equal(false);
    const meta = await sharp(whole).metadata();
    expect(meta.orientation).to.equal(8);
    expect((await sharp(whole).raw().toBuffer()).equals(await sharp(photo).raw().toBuffer())).to.equal(true);
  });

  it('writes no EXIF at all for an upright photo, and passes anything that is not a JPEG through unchanged', async () => {
    const upright = await sharp(photo).withMetadata({ orientation: 1 }).jpeg().toBuffer();
    const stripped = await collect(stripJpegMetadata(pieces(upright, 7)));
    expect((await sharp(stripped).metadata()).exif).to.equal(undefined);
    const text = Buffer.from('not a jpeg, just text that happens to be uploaded as one');
    expect((await collect(stripJpegMetadata(pieces(text, 5)))).equals(text)).to.equal(true);
  });

  it('reads the orientation of little- and big-endian EXIF and nothing from a broken one', () => {
    expect(exifOrientation(Buffer.from('Exif\0\0MM\0*\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01\0\x06\0\0\0\0\0\0', 'latin1'))).to.equal(6);
    expect(exifOrientation(Buffer.from('Exif\0\0II*\0\x08\0\0\0\x01\0\x12\x01\x03\0\x01\0\0\0\x03\0\0\0\0\0\0\0', 'latin1'))).to.equal(3);
    expect(exifOrientation(Buffer.from('Exif\0\0MM\0*\0\0\xff\xff', 'latin1'))).to.equal(null);
    expect(exifOrientation(Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'))).to.equal(null);
  });
});
