// Removes metadata from a JPEG as it streams in, without touching the picture: the segments
// before the image data that carry EXIF (GPS, camera, times), XMP, IPTC and comments are left
// out, and an EXIF orientation other than upright is written back as a minimal EXIF block
// holding that tag alone, so browsers still turn the photo the right way. The colour profile
// (APP2), JFIF and Adobe segments stay. Only one segment (at most 64 KiB) is held at a time.
// Anything that does not parse as a JPEG passes through unchanged.

const SOI = 0xd8;
const SOS = 0xda;
const APP1 = 0xe1;
const APP13 = 0xed;
const COM = 0xfe;
const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');

/** The orientation tag (1 to 8) of an EXIF APP1 payload ("Exif\0\0" + TIFF), or null. */
export function exifOrientation(payload: Buffer): number | null {
  if (payload.length < 14 || !payload.subarray(0, 6).equals(EXIF_HEADER)) return null;
  const tiff = payload.subarray(6);
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const u16 = (at: number) => (order === 'II' ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (order === 'II' ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return null;
  const count = u16(ifd);
  for (let i = 0; i < count; i += 1) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return null;
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : null;
    }
  }
  return null;
}

/** An APP1 segment with an EXIF block holding the orientation alone (big-endian TIFF). */
export function orientationSegment(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // IFD0 right after the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10); // Orientation
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14); // one value
  tiff.writeUInt16BE(orientation, 18);
  tiff.writeUInt32BE(0, 22); // no next IFD
  const head = Buffer.from([0xff, APP1, 0, 0]);
  head.writeUInt16BE(2 + EXIF_HEADER.length + tiff.length, 2);
  return Buffer.concat([head, EXIF_HEADER, tiff]);
}

/** Segments that may carry personal data and are left out: EXIF and XMP (APP1), IPTC, comments. */
const dropped = (marker: number) => marker === APP1 || marker === APP13 || marker === COM;

export async function* stripJpegMetadata(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncIterable<Buffer> {
  let pending = Buffer.alloc(0);
  let passThrough = false;
  let started = false;
  for await (const chunk of source) {
    if (passThrough) {
      yield Buffer.from(chunk);
      continue;
    }
    pending = Buffer.concat([pending, chunk]);
    const out: Buffer[] = [];
    for (;;) {
      if (!started) {
        if (pending.length < 2) break;
        if (pending[0] !== 0xff || pending[1] !== SOI) {
          passThrough = true;
          break;
        }
        out.push(pending.subarray(0, 2));
        pending = pending.subarray(2);
        started = true;
        continue;
      }
      if (pending.length < 4) break;
      const marker = pending[1];
      // Image data (or something we do not read as a header segment): the rest goes as it is.
      if (pending[0] !== 0xff || marker === SOS || marker < 0xc0 || (marker >= 0xd0 && marker <= 0xd9)) {
        passThrough = true;
        break;
      }
      const end = 2 + pending.readUInt16BE(2);
      if (pending.length < end) break;
      const payload = pending.subarray(4, end);
      if (!dropped(marker)) out.push(pending.subarray(0, end));
      else if (marker === APP1) {
        const orientation = exifOrientation(payload);
        if (orientation !== null && orientation !== 1) out.push(orientationSegment(orientation));
      }
      pending = pending.subarray(end);
    }
    if (out.length > 0) yield Buffer.concat(out);
    if (passThrough && pending.length > 0) {
      yield Buffer.from(pending);
      pending = Buffer.alloc(0);
    }
  }
  if (pending.length > 0) yield Buffer.from(pending);
}
