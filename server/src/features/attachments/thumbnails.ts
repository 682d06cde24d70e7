// Thumbnails of uploaded images, made with sharp (libvips). An image is read whole to decode it,
// so one user must not be able to make the server decode giant images at once: input pixels are
// capped (limitInputPixels; a 25 MiB file can announce a billion pixels), libvips keeps no
// operation cache and uses one thread, and thumbnails are made one at a time per process.
// The thumbnail is upright (EXIF orientation applied) and carries no metadata at all: sharp
// writes none unless asked (no withMetadata/keepExif), so GPS and camera data never reach it.
import sharp from 'sharp';

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

let queue: Promise<unknown> = Promise.resolve();

/** Runs `work` after every thumbnail asked before it: one decode at a time in this process. */
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

/** Reads the image and answers its thumbnail, or null when it is no image sharp can read within the limits. */
export function makeThumbnail(source: AsyncIterable<Buffer>): Promise<Thumbnail | null> {
  return oneAtATime(async () => {
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
  });
}
