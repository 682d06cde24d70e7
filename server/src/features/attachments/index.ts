// Attachments, assembled: the blob store chosen by the configuration (database rows unless
// ATTACHMENTS_DIR names a folder), the repository, the service and the timer sweeping unsent
// uploads; chat is given the service to claim an attachment for a message and to remove it with
// the message.
import type { Deps, ServerFeature } from '../types';
import { AttachmentsRepository } from './attachments-repository';
import { attachmentsRoutes } from './attachments-routes';
import { AttachmentsService } from './attachments-service';
import { BlobChunksRepository } from './blob-chunks-repository';
import type { BlobStore } from './blob-store';
import { FolderBlobStore } from './folder-blob-store';

export function createAttachments(deps: Deps): { service: AttachmentsService; feature: ServerFeature } {
  const store: BlobStore = deps.config.attachmentsDir ? new FolderBlobStore(deps.config.attachmentsDir) : new BlobChunksRepository(deps.db);
  const attachments = new AttachmentsRepository(deps.db);
  const log = deps.log.child({ feature: 'attachments' });
  const limits = deps.config.attachmentLimits;
  const service = new AttachmentsService({
    attachments, store, isMember: (roomId, userId) => attachments.isMember(roomId, userId),
    visibleFrom: (roomId, userId) => attachments.visibleFrom(roomId, userId), clock: deps.clock, log, limits,
  });
  // Uploads never sent are swept on a timer, whoever made them and whether or not they upload
  // again (docs/architecture.md, attachments); a sweep still running skips the next tick.
  let sweeping: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = service.sweepUnsent().then(
      (removed) => { if (removed > 0) log.info({ removed }, 'unsent uploads removed'); },
      (err: unknown) => { log.warn({ err }, 'sweeping unsent uploads failed'); },
    ).finally(() => { sweeping = null; });
  }, limits.sweepIntervalMs);
  timer.unref();
  const stop = async () => {
    clearInterval(timer);
    await sweeping;
  };
  return { service, feature: { routes: attachmentsRoutes(service), stop } };
}
