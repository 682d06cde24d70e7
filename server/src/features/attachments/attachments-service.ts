// Photos and files (docs/protocol.md, attachments): uploading into a room within the user's
// quotas, downloading by its members (an upload not sent yet by its uploader alone) at a bounded
// rate, claiming one for a message (once, by its uploader, in its room), removing it with the
// message deleted for everyone, and sweeping uploads never sent.
import crypto from 'node:crypto';
import { api, type Attachment } from '@common/api';
import type { AttachmentLimits } from '../../config';
import type { Logger } from '../../log';
import { ForbiddenError, InvalidError, NotAMemberError, NotFoundError, QuotaExceededError, RateLimitedError } from '../errors';
import type { AfterCommit, Clock, Transaction } from '../types';
import type { BlobStore } from './blob-store';
import type { AttachmentRow, AttachmentsRepository } from './attachments-repository';
import { DownloadRate } from './download-rate';
import { FairQueue } from './fair-queue';
import { stripJpegMetadata } from './jpeg-metadata';
import { RASTER_TYPES, THUMBNAIL_TYPE, thumbnailPool, type Thumbnailer } from './thumbnails';
import { VoiceError, voicePool, type VoiceAnalyzer, type VoiceFacts } from './voice';

export interface AttachmentsDeps {
  attachments: AttachmentsRepository;
  store: BlobStore;
  isMember(roomId: number, userId: number): Promise<boolean>;
  /** The first seq the member may read (a private past), null for no member; isMember's answer when absent. */
  visibleFrom?(roomId: number, userId: number): Promise<number | null>;
  clock: Clock;
  log: Logger;
  /** The quotas, the download rate and the sweep's age; the configuration's defaults when left out. */
  limits?: AttachmentLimits;
  /** Tests replace it; a fair pool of sharp otherwise (thumbnails.ts). */
  thumbnail?: Thumbnailer;
  /** Tests replace it; ffmpeg in a fair pool otherwise (voice.ts). */
  voice?: VoiceAnalyzer;
}

/** What an upload is: a photo or file (absent), or a voice message (kind=voice in its query). */
export type UploadKind = 'voice' | null;

const MiB = 1024 * 1024;

/** What applies when no limits are given (the defaults of docs/operations.md). */
export const DEFAULT_LIMITS: AttachmentLimits = {
  unsentQuotaBytes: 100 * MiB, dailyQuotaBytes: 1024 * MiB, unsentTtlMs: 24 * 3600_000, sweepIntervalMs: 10 * 60_000,
  downloadsPerSecond: 20, downloadBurst: 100, thumbnailSlots: 2,
};

/** Uploads one user stores at once on a node, and all users together (docs/architecture.md §3a). */
const UPLOADS_PER_USER = 2;
const UPLOAD_SLOTS = 64;

/** Unsent uploads removed per batch of a sweep; a sweep goes on while batches come full, up to SWEEP_BATCHES. */
const SWEEP_BATCH = 100;
const SWEEP_BATCHES = 50;

/** A new public id: 128 random bits, base64url (22 characters). */
export function newPublicId(): string {
  return crypto.randomBytes(16).toString('base64url');
}

/** The UTC day of an instant as yyyymmdd, the daily quota's key. */
export function utcDay(ms: number): number {
  const d = new Date(ms);
  return d.getUTCFullYear() * 10_000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

const mib = (bytes: number) => `${Math.floor(bytes / MiB)} MiB`;

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
  /** The row's key (messages.attachment_id). */
  id: number;
  /** The wire's name for it. */
  publicId: string;
  name: string;
  size: number;
  contentType: string;
  hasThumbnail: boolean;
  width: number | null;
  height: number | null;
  /** A voice message's length and waveform; null for photos and files. */
  voice: VoiceFacts | null;
}

/** The wire form (the upload's answer and a message's `attachment`). */
export function toAttachment(a: AttachmentFacts): Attachment {
  const out: Attachment = { attachmentId: a.publicId, name: a.name, size: a.size, contentType: a.contentType, url: api.attachment(a.publicId) };
  if (a.hasThumbnail) out.thumbnailUrl = api.attachmentThumbnail(a.publicId);
  if (a.width !== null && a.height !== null) {
    out.width = a.width;
    out.height = a.height;
  }
  if (a.voice) {
    out.kind = 'voice';
    out.durationMs = a.voice.durationMs;
    out.waveform = a.voice.waveform;
  }
  return out;
}

export const factsOf = (a: AttachmentRow): AttachmentFacts => ({
  id: a.id, publicId: a.publicId, name: a.name, size: a.size, contentType: a.contentType, hasThumbnail: a.thumbKey !== null, width: a.width, height: a.height, voice: a.voice,
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

/** Ours: a photo is an image we decoded (it has a thumbnail); anything else is a file. */
export function isPhoto(a: Pick<AttachmentFacts, 'contentType' | 'hasThumbnail'>): boolean {
  return a.hasThumbnail && RASTER_TYPES.has(a.contentType);
}

/** What chat uses of attachments: claiming some for a message, removing them with the message or the room. */
export type AttachmentPort = Pick<AttachmentsService, 'claim' | 'claimPhotos' | 'remove' | 'removeRoom'>;

export class AttachmentsService {
  private readonly limits: AttachmentLimits;
  private readonly thumbnail: Thumbnailer;
  private readonly voice: VoiceAnalyzer;
  private readonly downloads: DownloadRate;
  private readonly uploads = new FairQueue({ slots: UPLOAD_SLOTS, perKey: UPLOADS_PER_USER });
  /** Bytes of each user's uploads being stored now: counted against the quotas beside the stored ones. */
  private readonly inFlight = new Map<number, number>();

  constructor(private readonly deps: AttachmentsDeps) {
    this.limits = deps.limits ?? DEFAULT_LIMITS;
    this.thumbnail = deps.thumbnail ?? thumbnailPool(this.limits.thumbnailSlots);
    this.voice = deps.voice ?? voicePool(this.limits.thumbnailSlots, this.limits.ffmpegPath);
    this.downloads = new DownloadRate({ perSecond: this.limits.downloadsPerSecond, burst: this.limits.downloadBurst }, deps.clock);
  }

  /**
   * Stores the body streamed in as an attachment of the room. Refused before a byte is read
   * when the user is not a member or is out of quota (or the declared length would be), and
   * while it streams once it passes the quota. Images get a thumbnail and their size in pixels.
   */
  async upload(
    userId: number, roomId: number, rawName: string, rawType: string, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, declaredBytes: number | null = null,
    kind: UploadKind = null,
  ): Promise<Attachment> {
    // A voice message is audio: anything else is refused before a byte is read.
    if (kind === 'voice' && !cleanContentType(rawType).startsWith('audio/')) {
      throw new InvalidError('음성 메시지는 오디오 파일이어야 합니다 (Content-Type: audio/…)', 'not_audio');
    }
    if (!(await this.deps.isMember(roomId, userId))) throw new NotAMemberError();
    // One user's uploads go UPLOADS_PER_USER at a time (the rest wait, their bodies unread), so a
    // flood of them holds at most that many of the database's connections and thumbnails.
    return this.uploads.run(userId, () => this.store(userId, roomId, rawName, rawType, body, declaredBytes, kind));
  }

  private async store(
    userId: number, roomId: number, rawName: string, rawType: string, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, declaredBytes: number | null,
    kind: UploadKind,
  ): Promise<Attachment> {
    const { attachments, store, clock } = this.deps;
    const name = cleanFileName(rawName);
    const contentType = cleanContentType(rawType);
    const quota = await this.quotaOf(userId);
    quota.check(declaredBytes ?? 1);
    const counted = this.counted(userId, body, quota.check);
    let key: string;
    let size: number;
    try {
      // A JPEG's EXIF (GPS, camera), XMP and comments never reach storage (jpeg-metadata.ts).
      ({ key, size } = await store.write(contentType === 'image/jpeg' ? stripJpegMetadata(counted.body) : counted.body));
    } finally {
      counted.release();
    }
    if (size === 0) {
      await store.remove(key);
      throw new InvalidError('the file is empty');
    }
    let thumbKey: string | null = null;
    let width: number | null = null;
    let height: number | null = null;
    let voice: VoiceFacts | null = null;
    if (kind === 'voice') {
      try {
        voice = await this.voice(userId, store.read(key));
      } catch (err) {
        await store.remove(key);
        if (err instanceof VoiceError) throw new InvalidError(err.message, err.reason === 'unavailable' ? 'voice_unavailable' : err.reason === 'too-long' ? 'voice_too_long' : 'voice_unreadable');
        throw err;
      }
    } else if (RASTER_TYPES.has(contentType)) {
      const thumb = await this.thumbnail(userId, store.read(key));
      if (thumb) {
        thumbKey = (await store.write([thumb.bytes])).key;
        ({ width, height } = thumb);
      }
    }
    const row = { publicId: newPublicId(), roomId, uploaderId: userId, name, contentType, size, blobKey: key, thumbKey, width, height, voice, createdAtMs: clock() };
    // Counted beside the row's insert (one round trip less): the bytes were stored either way.
    const dayCounted = attachments.addBytesOn(userId, utcDay(row.createdAtMs), size).catch((err: unknown) => {
      this.deps.log.warn({ err, userId }, 'counting an upload against the daily quota failed');
    });
    let id: number;
    try {
      id = await attachments.insert(row);
    } catch (err) {
      // The room was deleted meanwhile (its row is gone): nothing may name these bytes now.
      await store.remove(key);
      if (thumbKey !== null) await store.remove(thumbKey);
      throw err;
    } finally {
      await dayCounted;
    }
    return toAttachment(factsOf({ id, ...row }));
  }

  /**
   * What the user may still upload: a check of a total this upload would reach, refusing past
   * the unsent quota (413: send or wait for the sweep) or the day's (429 until midnight UTC).
   * Uploads of the user still streaming count too, on this node.
   */
  private async quotaOf(userId: number): Promise<{ check: (bytes: number) => void }> {
    const { attachments, clock } = this.deps;
    const { unsentQuotaBytes, dailyQuotaBytes } = this.limits;
    const now = clock();
    const [unsent, today] = await Promise.all([attachments.unsentBytes(userId), attachments.bytesOn(userId, utcDay(now))]);
    return {
      check: (bytes) => {
        const streaming = this.inFlight.get(userId) ?? 0;
        if (unsent + streaming + bytes > unsentQuotaBytes) {
          throw new QuotaExceededError(`uploads not sent yet may hold at most ${mib(unsentQuotaBytes)}; send them in a message or wait until they are removed`);
        }
        if (today + streaming + bytes > dailyQuotaBytes) {
          const midnight = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate() + 1);
          throw new RateLimitedError((midnight - now) / 1000, `at most ${mib(dailyQuotaBytes)} may be uploaded a day; try again tomorrow (UTC)`);
        }
      },
    };
  }

  /**
   * The body, counted as it streams: each piece is added to the user's bytes in flight and
   * checked against the quota before it goes on (the store then removes what it wrote and the
   * refusal answers while the client may still be sending). release() takes the count back.
   */
  private counted(userId: number, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, check: (bytes: number) => void) {
    let mine = 0;
    const add = (n: number) => {
      mine += n;
      const total = (this.inFlight.get(userId) ?? 0) + n;
      if (total === 0) this.inFlight.delete(userId);
      else this.inFlight.set(userId, total);
    };
    const self = async function* () {
      for await (const piece of body) {
        // The check counts what is in flight already (this upload's pieces so far among them).
        check(piece.byteLength);
        add(piece.byteLength);
        yield piece;
      }
    };
    return { body: self(), release: () => add(-mine) };
  }

  /**
   * The file, or its thumbnail, for a member of its room, and while no message has sent it for
   * its uploader alone; the bytes are read (all or a range) only when asked. The user's download
   * rate is taken first, before any database work.
   */
  /** A member may read a sent attachment unless it was sent before they joined (a private past). */
  private async mayRead(roomId: number, userId: number, seq: number | null): Promise<boolean> {
    if (!this.deps.visibleFrom) return this.deps.isMember(roomId, userId);
    const from = await this.deps.visibleFrom(roomId, userId);
    return from !== null && (seq === null || seq >= from);
  }

  async download(userId: number, attachmentId: string, thumbnail: boolean): Promise<Download> {
    const wait = this.downloads.take(userId);
    if (wait > 0) throw new RateLimitedError(wait, 'too many downloads; try again in a moment');
    const a = await this.deps.attachments.find({ publicId: attachmentId });
    if (!a) throw new NotFoundError('no such attachment');
    const readable = await this.mayRead(a.roomId, userId, a.sentIn?.seq ?? null);
    // Ours: a forward references the original's file (issue 27): its readers may read it too,
    // while the file lasts, whatever became of the original message.
    if (a.sentIn && (a.sentIn.deleted || !readable) && (await this.deps.attachments.readableThroughForward(a.id, userId))) return this.serve(a, thumbnail);
    if (a.sentIn?.deleted) throw new NotFoundError('no such attachment');
    if (!readable) throw new NotAMemberError();
    // Not sent yet: it is the uploader's draft, and to anyone else it does not exist (yet).
    if (!a.sentIn && a.uploaderId !== userId) throw new NotFoundError('no such attachment');
    return this.serve(a, thumbnail);
  }

  private async serve(a: AttachmentRow, thumbnail: boolean): Promise<Download> {
    const { store } = this.deps;
    if (thumbnail) {
      const thumbKey = a.thumbKey;
      // The thumbnail's length is not kept in its row: the store knows it.
      const size = thumbKey === null ? null : await store.size(thumbKey);
      if (thumbKey === null || size === null) throw new NotFoundError('this attachment has no thumbnail');
      return { contentType: THUMBNAIL_TYPE, inline: true, name: a.name, size, etag: `"t${a.publicId}"`, read: (start, end) => store.read(thumbKey, { start, end }) };
    }
    // An image is shown inline only when sharp could read it as the type it claims to be.
    const inline = a.thumbKey !== null && RASTER_TYPES.has(a.contentType);
    return {
      contentType: inline ? a.contentType : servedType(a.contentType), inline, name: a.name, size: a.size, etag: `"a${a.publicId}"`,
      read: (start, end) => store.read(a.blobKey, { start, end }),
    };
  }

  /**
   * What a message sending this attachment will carry. Only its uploader sends it, only into
   * the room it was uploaded to, and once: a second message with it is refused, except the same
   * message retried (same clientMsgId), which the message writer answers as a duplicate.
   */
  async claim(userId: number, roomId: number, attachmentId: string, clientMsgId: string | null): Promise<AttachmentFacts> {
    const a = await this.deps.attachments.find({ publicId: attachmentId });
    if (!a || a.sentIn?.deleted) throw new NotFoundError('no such attachment');
    if (a.uploaderId !== userId) throw new ForbiddenError('only its uploader can send an attachment');
    if (a.roomId !== roomId) throw new InvalidError('the attachment was uploaded to another room');
    if (a.sentIn && (clientMsgId === null || a.sentIn.clientMsgId !== clientMsgId)) throw new InvalidError('the attachment was sent already');
    return factsOf(a);
  }

  /**
   * Ours: what a message sending these photos at once will carry, in the order given. Each is
   * claimed as claim() claims one (its uploader's, in this room, not sent yet unless by this
   * very message retried), and each must be a photo (an image we decoded).
   */
  async claimPhotos(userId: number, roomId: number, attachmentIds: readonly string[], clientMsgId: string | null): Promise<AttachmentFacts[]> {
    if (new Set(attachmentIds).size !== attachmentIds.length) throw new InvalidError('an attachment is named twice');
    const found = new Map((await this.deps.attachments.findMany({ publicIds: attachmentIds })).map((a) => [a.publicId, a]));
    return attachmentIds.map((publicId) => {
      const a = found.get(publicId);
      if (!a || a.sentIn?.deleted) throw new NotFoundError('no such attachment');
      if (a.uploaderId !== userId) throw new ForbiddenError('only its uploader can send an attachment');
      if (a.roomId !== roomId) throw new InvalidError('the attachment was uploaded to another room');
      if (a.sentIn && (clientMsgId === null || a.sentIn.clientMsgId !== clientMsgId)) throw new InvalidError('the attachment was sent already');
      const facts = factsOf(a);
      if (!isPhoto(facts)) throw new InvalidError(`only photos can be sent several at once: ${a.name} is not one`);
      return facts;
    });
  }

  /** Removes the attachment (by its row's key) and its bytes (its message was deleted for everyone). */
  async remove(attachmentId: number): Promise<void> {
    const a = await this.deps.attachments.find({ id: attachmentId });
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

  /**
   * Removes every upload never sent within the unsent age (ATTACHMENTS_UNSENT_TTL_MS), any user's,
   * and the daily counts of days past; run on a timer (index.ts) by every node: two nodes
   * removing the same upload is no error. Answers how many it removed.
   */
  async sweepUnsent(): Promise<number> {
    const { attachments, clock } = this.deps;
    const now = clock();
    let removed = 0;
    for (let batch = 0; batch < SWEEP_BATCHES; batch += 1) {
      const stale = await attachments.unsentBefore(now - this.limits.unsentTtlMs, SWEEP_BATCH);
      for (const a of stale) {
        if (!(await attachments.deleteIfUnsent(a.id))) continue;
        await this.deps.store.remove(a.blobKey);
        if (a.thumbKey !== null) await this.deps.store.remove(a.thumbKey);
        removed += 1;
      }
      if (stale.length < SWEEP_BATCH) break;
    }
    await attachments.forgetDaysBefore(utcDay(now - 24 * 3600_000));
    return removed;
  }
}
