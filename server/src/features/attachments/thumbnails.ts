// Thumbnails of uploaded images, made with sharp (libvips). An image is read whole to decode it,
// so one user must not be able to make the server decode giant images at once: input pixels are
// capped (limitInputPixels; a 25 MiB file can announce a billion pixels), libvips keeps no
// operation cache and uses one thread per image, and thumbnails are made in a small pool of slots
// (THUMBNAIL_SLOTS, sharp's own threads off the event loop) shared fairly between users
// (fair-queue.ts): one user at most one slot, users served in turn, so one user's flood of giant
// PNGs never delays another user's small one behind it (docs/architecture.md §3a).
// The thumbnail is upright (EXIF orientation applied) and carries no metadata at all: sharp
// writes none unless asked (no withMetadata/keepExif), so GPS and camera data never reach it.
import sharp from 'sharp';
import { FairQueue } from './fair-queue';

/** At most this many pixels decoded (about 40 megapixels, ~160 MB as RGBA in the worst case). */
export const MAX_INPUT_PIXELS = 40_000_000;
/** The thumbnail's longer side at most. */
export const THUMBNAIL_PX = 400;
export const THUMBNAIL_TYPE = 'image/webp';

sharp.cache(false);
sharp.concurrency(1);

/** Declared types sharp reads and browsers show; anything else is a plain file. */
export const RASTER_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif']);

export interface Thumbnail {
  bytes: Buffer;
  /** The original's size in pixels, upright. */
  width: number;
  height: number;
}

/** Makes a thumbnail of what the user uploaded, in turn with other users' (see Thumbnailer). */
export type Thumbnailer = (userId: number, source: AsyncIterable<Buffer>) => Promise<Thumbnail | null>;

/**
 * Thumbnails made `slots` at a time, each user at most one at once (with a single slot, one at a
 * time), users served round-robin. The image is read inside its turn, so images waiting hold
 * no memory.
 */
export function thumbnailPool(slots: number): Thumbnailer {
  const queue = new FairQueue({ slots, perKey: slots > 1 ? 1 : slots });
  return (userId, source) => queue.run(userId, () => makeThumbnail(source));
}

/** Reads the image and answers its thumbnail, or null when it is no image sharp can read within the limits. */
export async function makeThumbnail(source: AsyncIterable<Buffer>): Promise<Thumbnail | null> {
  const pieces: Buffer[] = [];
  for await (const piece of source) pieces.push(piece);
  const input = Buffer.concat(pieces);
  pieces.length = 0;
  try {
    const options = { limitInputPixels: MAX_INPUT_PIXELS };
    const meta = await sharp(input, options).metadata();
    if (!meta.width || !meta.height) return null;
    // Orientations 5 to 8 turn the picture a quarter: the upright width is the stored height.
    const turned = (meta.orientation ?? 1) >= 5;
    const bytes = await sharp(input, options)
      .rotate()
      .resize({ width: THUMBNAIL_PX, height: THUMBNAIL_PX, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
    return { bytes, width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height };
  } catch {
    return null;
  }
}
