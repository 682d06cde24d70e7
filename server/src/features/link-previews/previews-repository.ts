// The link previews' rows (migrations/20261129100000_create_link_previews.ts): the cache per URL
// (a preview or a failure, with when it was fetched) and which preview each message shows.
import crypto from 'node:crypto';
import { api, type LinkPreview } from '@common/api';
import type { Knex } from '../../db/knex';
import { isDuplicateKey } from '../../db/errors';
import type { PageHead } from './head-reader';
import type { PreviewImage } from './page-fetcher';

export interface CachedPreview {
  id: number;
  ok: boolean;
  fetchedAtMs: number;
  preview: LinkPreview;
}

interface Row {
  id: number;
  public_id: string;
  url: string;
  ok: number | boolean;
  title: string | null;
  description: string | null;
  site_name: string | null;
  has_image: number | boolean | null;
  fetched_at_ms: number | string;
}

const COLUMNS = ['id', 'public_id', 'url', 'ok', 'title', 'description', 'site_name', 'fetched_at_ms'];

export const urlHash = (url: string) => crypto.createHash('sha256').update(url).digest('hex');

function toPreview(row: Row): LinkPreview {
  return {
    url: row.url, title: row.title, description: row.description, siteName: row.site_name,
    imageUrl: row.has_image ? api.linkPreviewImage(row.public_id) : null,
  };
}

export class PreviewsRepository {
  constructor(private readonly db: Knex) {}

  private rows() {
    return this.db('link_previews').select(COLUMNS.map((c) => `link_previews.${c}`)).select(this.db.raw('link_previews.image is not null as has_image'));
  }

  async byUrl(url: string): Promise<CachedPreview | null> {
    const row = (await this.rows().where('url_hash', urlHash(url)).first()) as Row | undefined;
    return row ? { id: row.id, ok: Boolean(row.ok), fetchedAtMs: Number(row.fetched_at_ms), preview: toPreview(row) } : null;
  }

  /** Stores what a fetch of `url` gave (head null: a failure), replacing an older row of it. */
  async store(url: string, head: PageHead | null, image: PreviewImage | null, atMs: number): Promise<CachedPreview> {
    const values = {
      ok: head !== null, title: head?.title ?? null, description: head?.description ?? null, site_name: head?.siteName ?? null,
      image: image?.bytes ?? null, image_type: image?.contentType ?? null, fetched_at_ms: atMs,
    };
    const hash = urlHash(url);
    // A refetch keeps the row's public id (older messages keep their image's address); the
    // image's ETag names the fetch, so a browser's cached copy is revalidated.
    const updated = await this.db('link_previews').where('url_hash', hash).update(values);
    if (updated === 0) {
      try {
        await this.db('link_previews').insert({ ...values, url_hash: hash, url, public_id: crypto.randomBytes(16).toString('base64url') });
      } catch (err) {
        // Another node stored the same URL at the same moment: theirs is as good.
        if (!isDuplicateKey(err)) throw err;
      }
    }
    return (await this.byUrl(url))!;
  }

  /** The message shows this preview (a retried record is a no-op). */
  async attach(messageId: number, previewId: number): Promise<void> {
    await this.db('message_link_previews').insert({ message_id: messageId, preview_id: previewId }).onConflict('message_id').ignore();
  }

  /**
   * Removes up to `max` cache rows fetched before `beforeMs` that no message shows (a failure, or
   * a page whose message was deleted): their next use fetches them again anyway. Answers how many.
   */
  async removeUnused(beforeMs: number, max: number): Promise<number> {
    // Asked again as they are deleted: a message may have come to show one meanwhile.
    const shownByNone = (q: Knex.QueryBuilder) => void q.select(this.db.raw('1')).from('message_link_previews').whereRaw('message_link_previews.preview_id = link_previews.id');
    const ids = (await this.db('link_previews').select('id').where('fetched_at_ms', '<', beforeMs).whereNotExists(shownByNone).limit(max)) as Array<{ id: number }>;
    if (ids.length === 0) return 0;
    return this.db('link_previews').whereIn('id', ids.map((r) => r.id)).whereNotExists(shownByNone).delete();
  }

  /** The previews of those messages that have one. */
  async ofMessages(messageIds: readonly number[]): Promise<Map<number, LinkPreview>> {
    const out = new Map<number, LinkPreview>();
    if (messageIds.length === 0) return out;
    const rows = (await this.rows()
      .select('message_link_previews.message_id')
      .join('message_link_previews', 'message_link_previews.preview_id', 'link_previews.id')
      .whereIn('message_link_previews.message_id', messageIds)
      .andWhere('link_previews.ok', true)) as Array<Row & { message_id: number }>;
    for (const row of rows) out.set(row.message_id, toPreview(row));
    return out;
  }

  async image(publicId: string): Promise<{ bytes: Buffer; contentType: string; etag: string } | null> {
    const row = (await this.db('link_previews').select('image', 'image_type', 'fetched_at_ms').where({ public_id: publicId }).first()) as
      | { image: Buffer | null; image_type: string | null; fetched_at_ms: number | string }
      | undefined;
    return row?.image && row.image_type ? { bytes: Buffer.from(row.image), contentType: row.image_type, etag: `"${publicId}.${Number(row.fetched_at_ms)}"` } : null;
  }
}
