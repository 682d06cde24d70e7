// A profile photo made from what the user uploaded (docs/protocol.md, profiles): JPEG, PNG or
// WebP only (told by the bytes, not the declared type), turned upright by its EXIF orientation,
// cropped to the middle square and written as two WebP squares, small (lists) and large (the
// profile card). sharp writes no metadata unless asked, so EXIF (GPS, camera) never reaches them.
// Pixels are capped like attachments' thumbnails, and photos are made in a small fair pool
// (attachments/fair-queue.ts): one user at a time per slot, users served in turn.
import sharp from 'sharp';
import { FairQueue } from '../attachments/fair-queue';

export const SMALL_PX = 96;
export const LARGE_PX = 512;
export const PHOTO_TYPE = 'image/webp';
/** At most this many pixels decoded (about 40 megapixels). */
const MAX_INPUT_PIXELS = 40_000_000;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp']);

export interface ProfilePhoto {
  small: Buffer;
  large: Buffer;
  contentType: string;
}

/** Reads the upload and makes the photo; null when it is no JPEG, PNG or WebP sharp can read. */
export async function makeProfilePhoto(source: AsyncIterable<Buffer>): Promise<ProfilePhoto | null> {
  const pieces: Buffer[] = [];
  for await (const piece of source) pieces.push(piece);
  const input = Buffer.concat(pieces);
  pieces.length = 0;
  if (input.length === 0) return null;
  try {
    const options = { limitInputPixels: MAX_INPUT_PIXELS };
    const meta = await sharp(input, options).metadata();
    if (!meta.format || !ACCEPTED_FORMATS.has(meta.format) || !meta.width || !meta.height) return null;
    const square = (px: number) =>
      sharp(input, options).rotate().resize({ width: px, height: px, fit: 'cover', position: 'centre' }).webp({ quality: 82 }).toBuffer();
    const [small, large] = await Promise.all([square(SMALL_PX), square(LARGE_PX)]);
    return { small, large, contentType: PHOTO_TYPE };
  } catch {
    return null;
  }
}

/** Makes photos `slots` at a time, each user at most one at once, users served in turn. */
export function photoPool(slots: number): (userId: number, source: AsyncIterable<Buffer>) => Promise<ProfilePhoto | null> {
  const queue = new FairQueue({ slots, perKey: 1 });
  return (userId, source) => queue.run(userId, () => makeProfilePhoto(source));
}
