// Chat's rules through the real repositories on SQLite :memory:, without HTTP or STOMP: what
// each rule stores, what it publishes and what it refuses.
import { expect } from 'chai';
import type { ChatMessage } from '@common/api';
import { topics } from '@common/destinations';
import { UsersRepository } from '../../../src/features/accounts/users-repository';
import { chatList } from '../../../src/features/chat/chat-list';
import { createRoom } from '../../../src/features/chat/create-room';
import { chatHistory } from '../../../src/features/chat/history';
import { assembleChat, type ChatParts } from '../../../src/features/chat';
import { addUser } from '../../../src/features/chat/invite';
import { leaveRoom } from '../../../src/features/chat/leave';
import { renameRoom } from '../../../src/features/chat/rename-room';
import { searchForRoom, searchUsers } from '../../../src/features/chat/user-search';
import { InvalidError, NotAMemberError } from '../../../src/features/errors';
import { memoryDeps, type MemoryDeps } from '../../support/memory-deps';
import { waitFor } from '../../support/wait';

describe('chat rules on a real database', () => {
  let deps: MemoryDeps;
  let parts: ChatParts;
  let users: UsersRepository;
  let kim: number;
  let lee: number;
  let park: number;

  beforeEach(async () => {
    deps = await memoryDeps();
    users = new UsersRepository(deps.db);
    parts = assembleChat(deps, users);
    kim = await users.insert({ email: 'kim@example.test', name: '김철수', passwordHash: null });
    lee = await users.insert({ email: 'lee@example.test', name: '이영희', passwordHash: null });
    park = await users.insert({ email: 'park@example.test', name: 'Park', passwordHash: null });
  });

  afterEach(async () => {
    await parts.writer.idle();
    await deps.db.destroy();
  });

  const history = async (userId: number, roomId: number) => chatHistory(parts.chat, userId, roomId, { page: 0 });
  const systemMessages = async (roomId: number): Promise<ChatMessage[]> =>
    (await history(kim, roomId)).messages.filter((m) => m.senderId === null);

  it('starts a chat stored under both names, shown to each by the other\'s name, and refreshes the starter\'s list only', async () => {
    const roomId = await createRoom(parts.chat, kim, lee);
    expect((await parts.chat.rooms.roomName(roomId))).to.equal('김철수, 이영희');
    expect((await chatList(parts.chat, lee)).map((r) => [r.chatRoomId, r.chatRoomName])).to.deep.equal([[roomId, '김철수']]);
    expect((await chatList(parts.chat, kim)).map((r) => [r.chatRoomId, r.chatRoomName])).to.deep.equal([[roomId, '이영희']]);
    expect(deps.publisher.to(topics.toggleRefresh(kim))).to.deep.equal(['true']);
    // Lee hears of the room with its first message (creating it raises no count).
    expect(deps.publisher.to(topics.toggleRefresh(lee))).to.deep.equal([]);
  });

  it('refuses a chat with oneself or with nobody', async () => {
    for (const target of [kim, 99_999]) {
      try {
        await createRoom(parts.chat, kim, target);
        expect.fail('created');
      } catch (err) {
        expect(err).to.be.instanceOf(InvalidError);
      }
    }
  });

  it('renames for a member with the exact text and its structured event; refuses others', async () => {
    const roomId = await createRoom(parts.chat, kim, lee);
    expect(await renameRoom(parts.chat, lee, roomId, '  우리 방  ')).to.equal('우리 방');
    const [renamed] = await systemMessages(roomId);
    expect(renamed).to.deep.include({
      senderName: '우리 방',
      content: '"이영희"님이 채팅 이름을 "우리 방" (으)로 변경하였습니다',
      systemEvent: { type: 'renamed', actorUserId: lee, actorName: '이영희', newName: '우리 방' },
    });
    expect(deps.publisher.to(topics.privateChat(roomId))).to.have.length(1);
    await expectRefusal(renameRoom(parts.chat, park, roomId, 'mine'), NotAMemberError);
    await expectRefusal(renameRoom(parts.chat, kim, roomId, 'x'.repeat(51)), InvalidError);
  });

  it('adds a user once, telling the room who added whom', async () => {
    const roomId = await createRoom(parts.chat, kim, lee);
    await addUser(parts.chat, kim, roomId, park);
    const [added] = await systemMessages(roomId);
    expect(added).to.deep.include({
      content: '"김철수" 님이 "Park" 님을 추가했습니다',
      addedUserEmail: 'park@example.test',
      systemEvent: { type: 'added', actorUserId: kim, actorName: '김철수', targetUserId: park, targetName: 'Park' },
    });
    expect((await history(park, roomId)).users.map((u) => u.userId)).to.deep.equal([kim, lee, park]);
    await expectRefusal(addUser(parts.chat, kim, roomId, park), InvalidError);
    expect((await searchForRoom(parts.chat, lee, roomId, 'park')).chatRoomUsers).to.deep.equal([kim, lee, park]);
  });

  it('lets a member leave: the leaver\'s tabs hear it and stop listening, the last one out deletes the room', async () => {
    const roomId = await createRoom(parts.chat, kim, lee);
    await leaveRoom(parts.chat, lee, roomId);
    const toLeaver = deps.publisher.published.filter((p) => p.toUser === lee && p.destination === topics.privateChat(roomId));
    expect(toLeaver.map((p) => (p.body as ChatMessage).systemEvent)).to.deep.equal([{ type: 'left', actorUserId: lee, actorName: '이영희' }]);
    expect(deps.publisher.unsubscribed).to.deep.include({ userId: lee, destination: topics.privateChat(roomId) });
    await expectRefusal(history(lee, roomId), NotAMemberError);

    await leaveRoom(parts.chat, kim, roomId);
    expect(await deps.db('rooms').where({ id: roomId }).first()).to.equal(undefined);
    expect(await chatList(parts.chat, kim)).to.deep.equal([]);
  });

  it('stores a member\'s message, publishes it after the commit and lists it; refuses a non-member', async () => {
    const roomId = await createRoom(parts.chat, kim, lee);
    await parts.chat.sender.sendUserMessage(kim, roomId, '안녕하세요', 'c-1');
    const [published] = deps.publisher.to(topics.privateChat(roomId)) as ChatMessage[];
    expect(published).to.deep.include({ senderId: kim, senderName: '김철수', content: '안녕하세요', clientMsgId: 'c-1' });
    expect((await history(lee, roomId)).messages.map((m) => m.messageId)).to.deep.equal([published.messageId]);
    expect((await chatList(parts.chat, lee))[0].lastMessage).to.equal('안녕하세요');
    await expectRefusal(parts.chat.sender.sendUserMessage(park, roomId, 'hi', null), NotAMemberError);
  });

  it('stores a retried clientMsgId once and re-sends the stored message to the sender only', async () => {
    const roomId = await createRoom(parts.chat, kim, lee);
    await parts.chat.sender.sendUserMessage(kim, roomId, 'once', 'same-id');
    await parts.chat.sender.sendUserMessage(kim, roomId, 'once', 'same-id');
    expect(await deps.db('messages').where({ room_id: roomId })).to.have.length(1);
    expect(deps.publisher.published.filter((p) => p.toUser === kim).map((p) => (p.body as ChatMessage).content)).to.deep.equal(['once']);
  });

  it('moves the unread marker: opening the room reads it, and it follows messages only while the room is open', async () => {
    const roomId = await createRoom(parts.chat, kim, lee);
    await parts.chat.sender.sendUserMessage(kim, roomId, 'first', null);
    const lastReadAt = async () => (await chatList(parts.chat, lee))[0].lastReadAt;
    expect(await lastReadAt()).to.equal(null);

    deps.advance(1000);
    await parts.chat.readMarkers.roomOpened('tab-1', lee, roomId);
    const opened = await lastReadAt();
    expect(opened).to.not.equal(null);

    deps.advance(1000);
    await parts.chat.sender.sendUserMessage(kim, roomId, 'while open', null);
    // The marker write that follows a message is asynchronous by design.
    await waitFor(async () => (await lastReadAt()) !== opened, 'the read marker to follow the message');
    const followed = await lastReadAt();

    await parts.chat.readMarkers.roomClosed('tab-1', lee, roomId);
    deps.advance(1000);
    await parts.chat.sender.sendUserMessage(kim, roomId, 'while away', null);
    expect(await lastReadAt()).to.equal(followed);
    await expectRefusal(parts.chat.readMarkers.roomOpened('tab-2', park, roomId), NotAMemberError);
  });

  it('finds users by a literal part of their name or their whole e-mail local part, and nobody for an empty, % or one-character keyword', async () => {
    expect((await searchUsers(parts.chat, 'lee')).map((u) => u.userId)).to.deep.equal([lee]);
    expect((await searchUsers(parts.chat, '영희')).map((u) => u.userId)).to.deep.equal([lee]);
    expect(await searchUsers(parts.chat, 'lee@')).to.deep.equal([]);
    expect(await searchUsers(parts.chat, '이')).to.deep.equal([]);
    expect(await searchUsers(parts.chat, ' % ')).to.deep.equal([]);
    expect(await searchUsers(parts.chat, '_')).to.deep.equal([]);
    await expectRefusal(searchUsers(parts.chat, 'x'.repeat(256)), InvalidError);
  });
});

async function expectRefusal(promise: Promise<unknown>, type: new (...args: never[]) => Error): Promise<void> {
  try {
    await promise;
  } catch (err) {
    expect(err).to.be.instanceOf(type);
    return;
  }
  expect.fail(`expected ${type.name}`);
}
