// What the user reads when the server refused an upload: the file's size, the quotas of unsent
// and daily bytes (docs/protocol.md, attachments), or a failure to try again.
import { ko } from '../../i18n/ko';
import { UploadRefused } from '../../services/upload';

export function uploadRefusal(err: unknown): string {
  if (!(err instanceof UploadRefused)) return ko.attachment.failed;
  if (err.status === 413) return err.code === 'quota_exceeded' ? ko.attachment.unsentQuota : ko.attachment.tooLarge;
  if (err.status === 429) return ko.attachment.dailyQuota;
  return ko.attachment.failed;
}
