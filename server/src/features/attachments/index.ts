// Attachments, assembled: the blob store chosen by the configuration (database rows unless
// ATTACHMENTS_DIR names a folder), the repository and the service; chat is given the service
// to claim an attachment for a message and to remove it with the message.
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
  const service = new AttachmentsService({
    attachments, store, isMember: (roomId, userId) => attachments.isMember(roomId, userId), clock: deps.clock, log: deps.log.child({ feature: 'attachments' }),
  });
  return { service, feature: { routes: attachmentsRoutes(service) } };
}
