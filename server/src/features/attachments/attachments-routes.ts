// REST of attachments (ours, docs/protocol.md): the upload streams its raw body into the
// service; downloads stream the stored bytes out with headers that keep the browser from
// running anything (nosniff from the transport, a sandbox CSP, attachment unless an image),
// whole or the one byte range asked for (the transport answers Range from the size).
import { api } from '@common/api';
import { LIMITS, toAttachmentId } from '@common/rules';
import { userOf, type RequestContext, type Route } from '../../transport/route';
import { InvalidError, NotFoundError } from '../errors';
import { idField } from '../request-fields';
import type { AttachmentsService, Download } from './attachments-service';

/** Content-Disposition with the name twice: an ASCII fallback and the exact UTF-8 name (RFC 6266). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function fileName(ctx: RequestContext): string {
  const raw = ctx.headers['x-file-name'] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new InvalidError('X-File-Name must be URL-encoded');
  }
}

function served(download: Download) {
  return {
    headers: {
      'Content-Disposition': contentDisposition(download.inline ? 'inline' : 'attachment', download.name),
      'Cache-Control': 'private, max-age=86400',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    },
    stream: { contentType: download.contentType, size: download.size, etag: download.etag, read: download.read },
  };
}

/** The declared length of the body, when one is (the transport refuses more than it counts). */
function declaredLength(ctx: RequestContext): number | null {
  const raw = ctx.headers['content-length'];
  return raw !== undefined && /^[0-9]{1,15}$/.test(raw) ? Number(raw) : null;
}

function attachmentId(ctx: RequestContext): string {
  const id = toAttachmentId(ctx.params.id);
  if (id === null) throw new NotFoundError('no such attachment');
  return id;
}

export function attachmentsRoutes(service: AttachmentsService): Route[] {
  const file = api.attachment(':id');
  return [
    {
      method: 'POST',
      path: api.attachmentUpload,
      streamBody: { maxBytes: LIMITS.attachmentBytes },
      handle: async (ctx) => {
        const user = userOf(ctx);
        const chatRoomId = idField(ctx.query.get('chatRoomId'), 'chatRoomId');
        const body = ctx.bodyStream ?? [];
        const kind = ctx.query.get('kind');
        if (kind !== null && kind !== 'voice') throw new InvalidError('kind must be voice or absent');
        return { json: await service.upload(user.userId, chatRoomId, fileName(ctx), ctx.headers['content-type'] ?? '', body, declaredLength(ctx), kind) };
      },
    },
    {
      method: 'GET',
      path: file,
      handle: async (ctx) => served(await service.download(userOf(ctx).userId, attachmentId(ctx), false)),
    },
    {
      method: 'GET',
      path: `${file}/thumbnail`,
      handle: async (ctx) => served(await service.download(userOf(ctx).userId, attachmentId(ctx), true)),
    },
  ];
}
