// Uploading a file into a room (docs/protocol.md, attachments) with XMLHttpRequest, because
// fetch reports no upload progress: the raw file is the body, its name goes URL-encoded in
// X-File-Name. The caller can cancel; the promise then rejects with UploadCancelled.
import { api, type Attachment } from '@common/api';

export class UploadCancelled extends Error {
  constructor() {
    super('upload cancelled');
  }
}

/**
 * The server refused the file: its status (413: too large, or `quota_exceeded`: too many bytes
 * not sent yet; 429: the day's bytes used up; 403: not a member) and the answer's error code.
 */
export class UploadRefused extends Error {
  constructor(readonly status: number, readonly code: string | null = null) {
    super(`upload refused with ${status}`);
  }
}

function errorCode(response: unknown): string | null {
  const code = typeof response === 'object' && response !== null ? (response as { error?: unknown }).error : null;
  return typeof code === 'string' ? code : null;
}

export interface Upload {
  done: Promise<Attachment>;
  cancel(): void;
}

export function uploadAttachment(chatRoomId: number, file: File, onProgress: (fraction: number) => void): Upload {
  const xhr = new XMLHttpRequest();
  const done = new Promise<Attachment>((resolve, reject) => {
    xhr.open('POST', `${api.attachmentUpload}?chatRoomId=${chatRoomId}`);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('X-File-Name', encodeURIComponent(file.name || 'file'));
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status === 200) resolve(xhr.response as Attachment);
      else reject(new UploadRefused(xhr.status, errorCode(xhr.response)));
    };
    xhr.onerror = () => reject(new UploadRefused(0));
    xhr.onabort = () => reject(new UploadCancelled());
    xhr.send(file);
  });
  return { done, cancel: () => xhr.abort() };
}
