// Uploading the signed-in user's profile photo (docs/protocol.md, profiles): PUT /api/user/photo
// with the image as the body, through XMLHttpRequest because fetch reports no upload progress.
// The server crops, strips and resizes it and answers the new photoVersion.
import { api, type PhotoResponse } from '@common/api';
import { UploadRefused } from './upload';

export interface PhotoUpload {
  done: Promise<PhotoResponse>;
  cancel(): void;
}

export function uploadProfilePhoto(file: Blob, onProgress: (fraction: number) => void): PhotoUpload {
  const xhr = new XMLHttpRequest();
  const done = new Promise<PhotoResponse>((resolve, reject) => {
    xhr.open('PUT', api.userPhoto);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status === 200) resolve(xhr.response as PhotoResponse);
      else reject(new UploadRefused(xhr.status));
    };
    xhr.onerror = () => reject(new UploadRefused(0));
    xhr.onabort = () => reject(new UploadRefused(0));
    xhr.send(file);
  });
  return { done, cancel: () => xhr.abort() };
}
