// The attachments service on a real SQLite :memory: database with the real repositories and
// chat's real leave rule: what is left of an upload whose room goes away while it is stored.
import { expect } from 'chai';
import { UsersRepository } from '../../../src/features/accounts/users-repository';
import { AttachmentsRepository } from '../../../src/features/attachments/attachments-repository';
import { AttachmentsService } from '../../../src/features/attachments/attachments-service';
import { BlobChunksRepository } from '../../../src/features/attachments/blob-chunks-repository';
import { assembleChat, type ChatParts } from '../../../src/features/chat';
import { createRoom } from '../../../src/features/chat/create-room';
import { leaveRoom } from '../../../src/features/chat/leave';
import { memoryDeps, type MemoryDeps } from '../../support/memory-deps';

describe('attachments and a room deleted meanwhile', () => {
  let deps: MemoryDeps;
  let parts: ChatParts;

  beforeEach(async () => {
    deps = await memoryDeps();
  });
  afterEach(async () => {
    await parts?.writer.idle();
    await deps.db.destroy();
  });

  it('keeps no bytes of an upload whose room was deleted (its last members left) while the file was being stored', async () => {
    const users = new UsersRepository(deps.db);
    const kim = await users.insert({ email: 'kim@example.test', name: '김철수', passwordHash: null });
    const lee = await users.insert({ email: 'lee@example.test', name: '이영희', passwordHash: null });
    const attachments = new AttachmentsRepository(deps.db);
    const store = new BlobChunksRepository(deps.db);
    let roomId = 0;
    const service = new AttachmentsService({
      attachments, store, clock: deps.clock, log: deps.log, isMember: (room, user) => attachments.isMember(room, user),
      // Runs after the bytes are stored and before the attachment's row is written: the moment
      // both members leave.
      thumbnail: async () => {
        await leaveRoom(parts.chat, kim, roomId);
        await leaveRoom(parts.chat, lee, roomId);
        return { bytes: Buffer.from('thumb'), width: 1, height: 1 };
      },
    });
    parts = assembleChat(deps, users, undefined, service);
    roomId = await createRoom(parts.chat, kim, lee);

    let refused: unknown = null;
    await service.upload(kim, roomId, 'a.png', 'image/png', [Buffer.from('a picture')]).catch((err: unknown) => { refused = err; });
    expect(refused, 'the upload fails: its room is gone').to.be.instanceOf(Error);
    expect(await deps.db('rooms').where({ id: roomId }).first()).to.equal(undefined);
    expect(await deps.db('attachments').first()).to.equal(undefined);
    expect(await deps.db('attachment_chunks').first(), 'neither the file nor its thumbnail kept').to.equal(undefined);
  });

  it('sweeps an upload left unsent past its age, and its removal spares one a message sent after the sweep read it', async () => {
    const users = new UsersRepository(deps.db);
    const kim = await users.insert({ email: 'kim@example.test', name: '김철수', passwordHash: null });
    const lee = await users.insert({ email: 'lee@example.test', name: '이영희', passwordHash: null });
    const attachments = new AttachmentsRepository(deps.db);
    const store = new BlobChunksRepository(deps.db);
    let now = Date.UTC(2026, 10, 26);
    const service = new AttachmentsService({ attachments, store, clock: () => now, log: deps.log, isMember: (room, user) => attachments.isMember(room, user) });
    parts = assembleChat(deps, users, undefined, service);
    const roomId = await createRoom(parts.chat, kim, lee);
    const left = await service.upload(kim, roomId, 'a.txt', 'text/plain', [Buffer.from('left behind')]);
    const raced = await service.upload(kim, roomId, 'b.txt', 'text/plain', [Buffer.from('sent meanwhile')]);
    now += 24 * 3600_000 + 1;
    // A sweep reads both as unsent; the second is then sent, before the sweep's removal reaches it.
    const stale = await attachments.unsentBefore(now - 24 * 3600_000, 100);
    expect(stale.map((a) => a.publicId)).to.deep.equal([left.attachmentId, raced.attachmentId]);
    await parts.chat.sender.sendUserMessage(kim, roomId, '', null, null, raced.attachmentId);
    await parts.writer.idle();
    expect(await service.sweepUnsent()).to.equal(1);
    expect(await attachments.find({ publicId: left.attachmentId })).to.equal(null);
    expect(await attachments.find({ publicId: raced.attachmentId })).to.not.equal(null);
    // The removal the sweep makes of each row it read checks again that no message sent it.
    expect(await attachments.deleteIfUnsent(stale[1].id)).to.equal(false);
    expect(await attachments.find({ publicId: raced.attachmentId })).to.not.equal(null);
  });
});
