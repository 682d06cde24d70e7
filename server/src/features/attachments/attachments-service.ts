// Photos and files (docs/protocol.md, attachments): uploading into a room, downloading by its
// members, claiming one for a message (once, by its uploader, in its room) and removing it
// with the message deleted for everyone.
import { api, type Attachment } from '@common/api';
import type { Logger } from '../../log';
import { ForbiddenError, InvalidError, NotAMemberError, NotFoundError } from '../errors';
import type { AfterCommit, Clock, Transaction } from '../types';
import type { BlobStore } from './blob-store';
import type { AttachmentRow, AttachmentsRepository } from './attachments-repository';
import { stripJpegMetadata } from './jpeg-metadata';
import { makeThumbnail, RASTER_TYPES, THUMBNAIL_TYPE, type Thumbnail } from './thumbnails';

export interface AttachmentsDeps {
  attachments: AttachmentsRepository;
  store: BlobStore;
  isMember(roomId: number, userId: number): Promise<boolean>;
  clock: Clock;
  log: Logger;
  /** Tests replace it; sharp otherwise. */
  thumbnail?: (source: AsyncIterable<Buffer>) => Promise<Thumbnail | null>;
}

/** Uploads never sent are removed after this long (a send cancelled or never made). */
export const UNSENT_KEPT_MS = 24 * 60 * 60 * 1000;

/** What a download answers: how to label the bytes, their length, and reading them (all or a range). */
export interface Download {
  contentType: string;
  /** Shown in the page (images we decoded, thumbnails) rather than saved as a file. */
  inline: boolean;
  name: string;
  size: number;
  /** Names these exact bytes: an attachment's file and thumbnail never change under its id. */
  etag: string;
  read(start: number, end: number): AsyncIterable<Buffer>;
}

/** What a message carries of its attachment, as the database reads it with the message. */
export interface AttachmentFacts {
  id: number;
  name: string;
  size: number;
  contentType: string;
  hasThumbnail: boolean;
  width: number | null;
  height: number | null;
}

/** The wire form (the upload's answer and a message's `attachment`). */
export function toAttachment(a: AttachmentFacts): Attachment {
  const out: Attachment = { attachmentId: a.id, name: a.name, size: a.size, contentType: a.contentType, url: api.attachment(a.id) };
  if (a.hasThumbnail) out.thumbnailUrl = api.attachmentThumbnail(a.id);
  if (a.width !== null && a.height !== null) {
    out.width = a.width;
    out.height = a.height;
  }
  return out;
}

export const factsOf = (a: AttachmentRow): AttachmentFacts => ({
  id: a.id, name: a.name, size: a.size, contentType: a.contentType, hasThumbnail: a.thumbKey !== null, width: a.width, height: a.height,
});

/** A file name as given, reduced to a safe label: no path, no control characters, at most 255 characters. */
export function cleanFileName(raw: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const base = raw.split(/[/\\]/).pop()!.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  const name = [...base].slice(0, 255).join('');
  return name === '' || name === '.' || name === '..' ? 'file' : name;
}

/** The declared media type when it is a well-formed one, lower-cased; application/octet-stream otherwise. */
export function cleanContentType(raw: string): string {
  const type = raw.split(';')[0].trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,62}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,62}$/.test(type) ? type : 'application/octet-stream';
}

/**
 * The type a download is served as. Nothing an upload declares may make the browser run it in
 * our origin: HTML, XML (XHTML, SVG) and scripts go out as application/octet-stream.
 */
export function servedType(contentType: string): string {
  return /html|xml|svg|script|^text\/(?!plain$|csv$)|^multipart\//.test(contentType) ? 'application/octet-stream' : contentType;
}

/** What chat uses of attachments: claiming one for a message, removing it with the message or the room. */
export type AttachmentPort = Pick<AttachmentsService, 'claim' | 'remove' | 'removeRoom'>;

export class AttachmentsService {
  constructor(private readonly deps: AttachmentsDeps) {}

  /**
   * Stores the body streamed in as an attachment of the room. Refused before a byte is read
   * when the user is not a member. Images get a thumbnail and their size in pixels.
   */
  async upload(userId: number, roomId: number, rawName: string, rawType: string, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<Attachment> {
    const { attachments, store, clock } = this.deps;
    if (!(await this.deps.isMember(roomId, userId))) throw new NotAMemberError();
    const name = cleanFileName(rawName);
    const contentType = cleanContentType(rawType);
    // A JPEG's EXIF (GPS, camera), XMP and comments never reach storage (jpeg-metadata.ts).
    const { key, size } = await store.write(contentType === 'image/jpeg' ? stripJpegMetadata(body) : body);
    if (size === 0) {
      await store.remove(key);
      throw new InvalidError('the file is empty');
    }
    let thumbKey: string | null = null;
    let width: number | null = null;
    let height: number | null = null;
    if (RASTER_TYPES.has(contentType)) {
      const thumb = await (this.deps.thumbnail ?? makeThumbnail)(store.read(key));
      if (thumb) {
        thumbKey = (await store.write([thumb.bytes])).key;
        ({ width, height } = thumb);
      }
    }
    const row = { roomId, uploaderId: userId, name, contentType, size, blobKey: key, thumbKey, width, height, createdAtMs: clock() };
    let id: number;
    try {
      id = await attachments.insert(row);
    } catch (err) {
      // The room was deleted meanwhile (its row is gone): nothing may name these bytes now.
      await store.remove(key);
      if (thumbKey !== null) await store.remove(thumbKey);
      throw err;
    }
    void this.removeUnsent(userId);
    return toAttachment(factsOf({ id, ...row }));
  }

  /** The file, or its thumbnail, for a member of its room; the bytes are read (all or a range) only when asked. */
  async download(userId: number, attachmentId: number, thumbnail: boolean): Promise<Download> {
    const { store } = this.deps;
    const a = await this.deps.attachments.find(attachmentId);
    if (!a || a.sentIn?.deleted) throw new NotFoundError('no such attachment');
    if (!(await this.deps.isMember(a.roomId, userId))) throw new NotAMemberError();
    if (thumbnail) {
      const thumbKey = a.thumbKey;
      // The thumbnail's length is not kept in its row: the store knows it.
      const size = thumbKey === null ? null : await store.size(thumbKey);
      if (thumbKey === null || size === null) throw new NotFoundError('this attachment has no thumbnail');
      return { contentType: THUMBNAIL_TYPE, inline: true, name: a.name, size, etag: `"t${a.id}"`, read: (start, end) => store.read(thumbKey, { start, end }) };
    }
    // An image is shown inline only when sharp could read it as the type it claims to be.
    const inline = a.thumbKey !== null && RASTER_TYPES.has(a.contentType);
    return {
      contentType: inline ? a.contentType : servedType(a.contentType), inline, name: a.name, size: a.size, etag: `"a${a.id}"`,
      read: (start, end) => store.read(a.blobKey, { start, end }),
    };
  }

  /**
   * What a message sending this attachment will carry. Only its uploader sends it, only into
   * the room it was uploaded to, and once: a second message with it is refused, except the same
   * message retried (same clientMsgId), which the message writer answers as a duplicate.
   */
  async claim(userId: number, roomId: number, attachmentId: number, clientMsgId: string | null): Promise<AttachmentFacts> {
    const a = await this.deps.attachments.find(attachmentId);
    if (!a || a.sentIn?.deleted) throw new NotFoundError('no such attachment');
    if (a.uploaderId !== userId) throw new ForbiddenError('only its uploader can send an attachment');
    if (a.roomId !== roomId) throw new InvalidError('the attachment was uploaded to another room');
    if (a.sentIn && (clientMsgId === null || a.sentIn.clientMsgId !== clientMsgId)) throw new InvalidError('the attachment was sent already');
    return factsOf(a);
  }

  /** Removes the attachment and its bytes (its message was deleted for everyone). */
  async remove(attachmentId: number): Promise<void> {
    const a = await this.deps.attachments.find(attachmentId);
    if (!a) return;
    await this.deps.attachments.delete(a.id);
    await this.deps.store.remove(a.blobKey);
    if (a.thumbKey !== null) await this.deps.store.remove(a.thumbKey);
  }

  /**
   * The room is being deleted (in `trx`): its attachments' rows go in that transaction, and
   * their bytes too when they are database rows; files in a folder are removed after the
   * commit (answered), a failure there only logged: the room is gone either way.
   */
  async removeRoom(trx: Transaction, roomId: number): Promise<AfterCommit | null> {
    const keys = await this.deps.attachments.removeRoom(trx, roomId);
    if (keys.length === 0) return null;
    const after = await this.deps.store.removeWithin(trx, keys);
    if (!after) return null;
    return async () => {
      try {
        await after();
      } catch (err) {
        this.deps.log.warn({ err, roomId }, 'removing a deleted room\'s files failed');
      }
    };
  }

  /** Clears the user's uploads left unsent for a day; best effort, after an upload. */
  private async removeUnsent(userId: number): Promise<void> {
    try {
      const stale = await this.deps.attachments.unsentOf(userId, this.deps.clock() - UNSENT_KEPT_MS);
      for (const a of stale) await this.remove(a.id);
    } catch (err) {
      this.deps.log.warn({ err, userId }, 'removing unsent attachments failed');
    }
  }
}
