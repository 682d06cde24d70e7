// The built client, read once at start (it is small and never changes while serving), with the
// brotli and gzip copies the build makes beside each file (`x.js.br`, `x.js.gz`), chosen by the
// request's Accept-Encoding. Source maps are never served: they stay on disk for whoever debugs.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import mime from 'mime-types';

export type Encoding = 'br' | 'gzip';

export interface StaticFile {
  body: Buffer;
  type: string;
  /** Content-hashed names never change: cached for a year. */
  immutable: boolean;
  /** Pre-compressed copies made at build time. */
  encoded: Partial<Record<Encoding, Buffer>>;
  /** A weak validator of the file's content, whichever copy is sent (they mean the same bytes). */
  etag: string;
}

const ENCODED_SUFFIX: Record<string, Encoding> = { '.br': 'br', '.gz': 'gzip' };

export function loadStatic(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!fs.existsSync(dir)) return files;
  const all: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else all.push(full);
    }
  };
  walk(dir);
  const urlOf = (full: string) => '/' + path.relative(dir, full).split(path.sep).join('/');
  const isCopy = (full: string) => {
    const suffix = path.extname(full);
    return suffix in ENCODED_SUFFIX && all.includes(full.slice(0, -suffix.length));
  };
  for (const full of all) {
    if (full.endsWith('.map') || isCopy(full)) continue;
    const name = path.basename(full);
    const encoded: StaticFile['encoded'] = {};
    for (const [suffix, encoding] of Object.entries(ENCODED_SUFFIX)) {
      if (fs.existsSync(full + suffix)) encoded[encoding] = fs.readFileSync(full + suffix);
    }
    const body = fs.readFileSync(full);
    files.set(urlOf(full), {
      body,
      etag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      type: mime.contentType(path.extname(full)) || 'application/octet-stream',
      immutable: /\.[0-9a-f]{8,}\./.test(name),
      encoded,
    });
  }
  return files;
}

/** The encodings an Accept-Encoding header allows (q > 0), `*` included. */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    if (!token) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(token);
  }
  return accepted;
}

/** The body to send for this request: brotli first, then gzip, else the file itself. */
export function negotiate(file: StaticFile, acceptEncoding: string | undefined): { body: Buffer; encoding: Encoding | null } {
  const accepted = acceptedEncodings(acceptEncoding);
  for (const encoding of ['br', 'gzip'] as const) {
    const body = file.encoded[encoding];
    if (body && (accepted.has(encoding) || accepted.has('*'))) return { body, encoding };
  }
  return { body: file.body, encoding: null };
}

/** Headers of a static response: its encoding, and Vary whenever copies exist (caches must key on it). */
export function encodingHeaders(file: StaticFile, encoding: Encoding | null): Record<string, string> {
  const headers: Record<string, string> = {};
  if (Object.keys(file.encoded).length > 0) headers.Vary = 'Accept-Encoding';
  if (encoding) headers['Content-Encoding'] = encoding;
  return headers;
}
