// GET /api/link-previews/{id}/image (ours, docs/protocol.md, link previews): a preview's image,
// which we fetched once and re-encoded, to signed-in users. The id is a random public id, so
// previews cannot be walked; the headers are those of attachments' images (nosniff from the
// transport, a sandbox CSP), cached privately with an ETag.
import { Readable } from 'node:stream';
import { api } from '@common/api';
import { userOf, type Route } from '../../transport/route';
import { NotFoundError } from '../errors';
import type { PreviewsRepository } from './previews-repository';

const PUBLIC_ID = /^[A-Za-z0-9_-]{22}$/;

export function linkPreviewsRoutes(repo: PreviewsRepository): Route[] {
  return [
    {
      method: 'GET',
      path: api.linkPreviewImage(':id'),
      handle: async (ctx) => {
        userOf(ctx);
        const id = ctx.params.id;
        const image = PUBLIC_ID.test(id) ? await repo.image(id) : null;
        if (!image) throw new NotFoundError('no such image');
        const { bytes } = image;
        return {
          headers: { 'Cache-Control': 'private, max-age=86400', 'Content-Security-Policy': "default-src 'none'; sandbox" },
          stream: {
            contentType: image.contentType, size: bytes.length, etag: image.etag,
            read: (start: number, end: number) => Readable.from([bytes.subarray(start, end + 1)]),
          },
        };
      },
    },
  ];
}
