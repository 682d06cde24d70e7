// Ours (issue 27): several photos picked or dropped at once go up as a queue, two at a time
// (as many as the server stores at once for one user), with one progress for the whole queue,
// and are sent as one message of up to LIMITS.photosPerMessage photos. The whole send of what
// the composer is given (sendFiles) is here, loaded with the first file sent (AttachmentArea),
// never in the room's first script.
import type { Attachment } from '@common/api';
import { LIMITS } from '@common/rules';
import { ko } from '../../i18n/ko';
import { UploadCancelled, uploadAttachment, type Upload } from '../../services/upload';
import { uploadRefusal } from './uploadRefusal';

/** What the server turns into photos (thumbnails): anything else goes as a file of its own. */
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif']);

export const isPhotoFile = (file: File) => PHOTO_TYPES.has(file.type);

/** The files in groups sent as one message each: photos by up to 30 (when two or more), every other file alone. */
export function sendGroups(files: readonly File[]): File[][] {
  const photos = files.filter(isPhotoFile);
  if (photos.length < 2) return files.map((f) => [f]);
  const groups: File[][] = [];
  for (let i = 0; i < photos.length; i += LIMITS.photosPerMessage) groups.push(photos.slice(i, i + LIMITS.photosPerMessage));
  return [...groups, ...files.filter((f) => !isPhotoFile(f)).map((f) => [f])];
}

export interface QueueProgress { done: number; total: number; fraction: number }

export interface PhotoQueue {
  /** Each file's upload in order: its attachment, or the error that refused it. Rejects with UploadCancelled once cancelled. */
  done: Promise<Array<Attachment | Error>>;
  cancel(): void;
}

/** Uploads the files two at a time; `onProgress` hears of the whole queue. */
export function uploadQueue(chatRoomId: number, files: readonly File[], onProgress: (p: QueueProgress) => void): PhotoQueue {
  const fractions = files.map(() => 0);
  const results: Array<Attachment | Error | undefined> = files.map(() => undefined);
  const running = new Set<Upload>();
  let cancelled = false;
  let next = 0;
  const report = () => {
    const done = results.filter((r) => r !== undefined).length;
    onProgress({ done, total: files.length, fraction: fractions.reduce((a, b) => a + b, 0) / files.length });
  };
  const worker = async (): Promise<void> => {
    while (!cancelled && next < files.length) {
      const i = next;
      next += 1;
      const upload = uploadAttachment(chatRoomId, files[i], (f) => {
        fractions[i] = f;
        report();
      });
      running.add(upload);
      try {
        results[i] = await upload.done;
      } catch (err) {
        if (err instanceof UploadCancelled) {
          cancelled = true;
          return;
        }
        results[i] = err instanceof Error ? err : new Error(String(err));
      } finally {
        running.delete(upload);
      }
      fractions[i] = 1;
      report();
    }
  };
  const done = Promise.all([worker(), worker()]).then(() => {
    if (cancelled) throw new UploadCancelled();
    return results as Array<Attachment | Error>;
  });
  return {
    done,
    cancel: () => {
      cancelled = true;
      for (const u of running) u.cancel();
    },
  };
}

/** What the composer's status line shows of the upload running: its words, how far it is, and how to cancel it. */
export interface Progress { label: string; fraction: number; cancel(): void }

const queueStrings = {
  uploadingPhotos: (done: number, total: number, percent: number) => `사진 ${total}장 보내는 중… ${done}/${total} (${percent}%)`,
};

export interface SendCallbacks {
  /** What the status line shows (null: nothing is uploading). */
  progress(p: Progress | null): void;
  error(message: string): void;
  /** The upload or queue running now, for the room to cancel when it closes (null: none). */
  running(upload: { cancel(): void } | null): void;
  /** An upload the server holds, to send: one attachment, or photos sent at once (`attachments`, the first being `attachment`). */
  uploaded(attachment: Attachment, attachments?: Attachment[]): void;
}

/**
 * The files picked, pasted or dropped, uploaded and handed on to be sent: several photos as one
 * message per 30 (one queue, one progress), every other file alone (its own progress). Files
 * over 25 MiB are refused before uploading; a cancel stops everything left.
 */
export async function sendFiles(chatRoomId: number, files: readonly File[], on: SendCallbacks): Promise<void> {
  const fitting = files.filter((file) => file.size <= LIMITS.attachmentBytes);
  if (fitting.length < files.length) on.error(ko.attachment.tooLarge);
  for (const group of sendGroups(fitting)) {
    if (group.length > 1) {
      let shown = true;
      const queue = uploadQueue(chatRoomId, group, ({ done, total, fraction }) => {
        if (shown) on.progress({ label: queueStrings.uploadingPhotos(done, total, Math.round(fraction * 100)), fraction, cancel: queue.cancel });
      });
      on.running(queue);
      on.progress({ label: queueStrings.uploadingPhotos(0, group.length, 0), fraction: 0, cancel: queue.cancel });
      try {
        const results = await queue.done;
        const sent = results.filter((r): r is Attachment => !(r instanceof Error));
        const refused = results.find((r): r is Error => r instanceof Error);
        if (refused) on.error(uploadRefusal(refused));
        // Photos the server could read go together; anything else it holds goes alone.
        const photos = sent.filter((a) => a.thumbnailUrl);
        if (photos.length > 0) on.uploaded(photos[0], photos.length > 1 ? photos : undefined);
        for (const a of sent.filter((x) => !x.thumbnailUrl)) on.uploaded(a);
      } catch (err) {
        if (err instanceof UploadCancelled) return;
        on.error(uploadRefusal(err));
      } finally {
        shown = false;
        on.running(null);
        on.progress(null);
      }
      continue;
    }
    const [file] = group;
    const name = file.name || 'file';
    let shown = true;
    const upload = uploadAttachment(chatRoomId, file, (fraction) => {
      if (shown) on.progress({ label: ko.attachment.uploading(name, Math.round(fraction * 100)), fraction, cancel: upload.cancel });
    });
    on.running(upload);
    on.progress({ label: ko.attachment.uploading(name, 0), fraction: 0, cancel: upload.cancel });
    try {
      on.uploaded(await upload.done);
    } catch (err) {
      if (err instanceof UploadCancelled) return;
      on.error(uploadRefusal(err));
    } finally {
      shown = false;
      on.running(null);
      on.progress(null);
    }
  }
}
