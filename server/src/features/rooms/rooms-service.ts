// Rooms: the chat list, user search, creating, renaming, inviting, leaving. Changes visible in
// the room are announced by system messages, stored and published like any message.
import type { ChatSummary, RoomSearchResponse, UserSummary } from '../../../../common/api';
import { topics } from '../../../../common/destinations';
import { isSearchableKeyword, isValidRoomName, LIMITS } from '../../../../common/rules';
import type { Publisher } from '../../stomp/api';
import { badRequest, forbidden } from '../../transport/errors';
import type { Clock } from '../index';
import type { MembersCache } from '../messages/members-cache';
import type { MessagesService, SystemMessage } from '../messages/messages-service';
import type { PresenceService } from '../presence/presence-service';
import type { ChatUser, RoomsRepository } from './rooms-repository';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const summary = (u: ChatUser): UserSummary => ({ userId: u.id, name: u.name, email: u.email });

/** The exact system message texts (SPEC: rename, add, leave). */
export const systemText = {
  renamed: (who: string, newName: string) => `"${who}"님이 채팅 이름을 "${newName}" (으)로 변경하였습니다`,
  added: (inviter: string, added: string) => `"${inviter}" 님이 "${added}" 님을 추가했습니다`,
  left: (who: string) => `"${who}"님이 채팅에서 나갔습니다`,
};

export interface RoomsServiceDeps {
  rooms: RoomsRepository;
  messages: MessagesService;
  members: MembersCache;
  presence: PresenceService;
  publisher: Publisher;
  clock: Clock;
}

export class RoomsService {
  constructor(private readonly deps: RoomsServiceDeps) {}

  async chatList(userId: number): Promise<ChatSummary[]> {
    const rows = await this.deps.rooms.chatList(userId);
    return rows.map((r) => ({
      chatRoomId: r.roomId,
      chatRoomName: r.roomName,
      lastMessage: r.lastMessage,
      lastMessageTime: iso(r.lastMessageAtMs),
      lastReadAt: iso(r.lastReadAtMs),
    }));
  }

  /** Users whose name or e-mail contains the keyword; [] without a query for an empty or "%" keyword. */
  async searchUsers(keyword: string): Promise<UserSummary[]> {
    if (keyword.length > LIMITS.searchInput) throw badRequest(`keyword is longer than ${LIMITS.searchInput} characters`);
    if (!isSearchableKeyword(keyword)) return [];
    return (await this.deps.rooms.searchUsers(keyword.trim(), LIMITS.searchResults)).map(summary);
  }

  async create(callerId: number, targetUserId: number): Promise<number> {
    const { rooms, publisher, clock } = this.deps;
    if (targetUserId === callerId) throw badRequest('cannot start a chat with yourself');
    const [caller, target] = await Promise.all([rooms.findUser(callerId), rooms.findUser(targetUserId)]);
    if (!target) throw badRequest('no such user');
    if (!caller) throw forbidden('no such user');
    const roomId = await rooms.createRoom(`${caller.name}, ${target.name}`, [caller.id, target.id], clock());
    for (const id of [caller.id, target.id]) publisher.publish(topics.toggleRefresh(id), 'true');
    return roomId;
  }

  async rename(callerId: number, roomId: number, requested: string): Promise<string> {
    const { rooms, members, messages } = this.deps;
    if (!isValidRoomName(requested)) throw badRequest(`chatRoomName must be 1 to ${LIMITS.roomName} characters`);
    const caller = await this.member(roomId, callerId);
    const name = requested.trim();
    await rooms.rename(roomId, name);
    members.invalidate(roomId);
    await messages.postSystemMessage(roomId, { roomName: name, content: systemText.renamed(caller.name, name) });
    return name;
  }

  async addUser(callerId: number, roomId: number, userId: number): Promise<void> {
    const { rooms, members, messages, clock } = this.deps;
    const inviter = await this.member(roomId, callerId);
    const target = await rooms.findUser(userId);
    if (!target) throw badRequest('no such user');
    if (!(await rooms.addMember(roomId, target.id, clock()))) throw badRequest('already a member of this chat room');
    members.invalidate(roomId);
    const roomName = (await rooms.roomName(roomId)) ?? '';
    // The system message toggles every member's refresh topic, the added user's included.
    await messages.postSystemMessage(roomId, {
      roomName, content: systemText.added(inviter.name, target.name), addedUserEmail: target.email,
    });
  }

  /**
   * The caller leaves; an empty room is deleted. The leaver's other tabs receive the leave
   * message before their subscriptions to the room end, so they close the room too.
   */
  async leave(callerId: number, roomId: number): Promise<void> {
    const { rooms, members, presence, publisher } = this.deps;
    const leaver = await this.member(roomId, callerId);
    const roomName = (await rooms.roomName(roomId)) ?? '';
    const { removed, roomDeleted } = await rooms.removeMember(roomId, callerId);
    if (!removed) throw forbidden('not a member of this chat room');
    members.invalidate(roomId);
    presence.left(callerId, roomId);
    try {
      await this.announceLeave(roomId, leaver, { roomName, content: systemText.left(leaver.name), leftUserId: leaver.id }, roomDeleted);
    } finally {
      // Already done when the message went out; this covers a failure before that.
      publisher.unsubscribeUser(callerId, topics.privateChat(roomId));
      publisher.publish(topics.toggleRefresh(callerId), 'true');
    }
  }

  private async announceLeave(roomId: number, leaver: ChatUser, message: SystemMessage, roomDeleted: boolean): Promise<void> {
    const { rooms, messages } = this.deps;
    if (!roomDeleted) {
      try {
        await messages.postSystemMessage(roomId, message);
        return;
      } catch (err) {
        // The last other member left meanwhile: the room is gone with its messages, and this
        // leave still succeeded.
        if ((await rooms.roomName(roomId)) !== null) throw err;
      }
    }
    messages.tellLeaverOfDeletedRoom(roomId, leaver.id, message);
  }

  /** Users matching the keyword and the ids of the room's members, for the invite screen. */
  async searchForRoom(callerId: number, roomId: number, keyword: string): Promise<RoomSearchResponse> {
    if (keyword.length > LIMITS.searchInput) throw badRequest(`keyword is longer than ${LIMITS.searchInput} characters`);
    const roomMembers = await this.deps.rooms.members(roomId);
    if (!roomMembers.some((u) => u.id === callerId)) throw forbidden('not a member of this chat room');
    return { allUsers: await this.searchUsers(keyword), chatRoomUsers: roomMembers.map((u) => u.id) };
  }

  /** The caller as a member of the room; 403 when they are not one. */
  private async member(roomId: number, userId: number): Promise<ChatUser> {
    const roomMembers = await this.deps.rooms.members(roomId);
    const me = roomMembers.find((u) => u.id === userId);
    if (!me) throw forbidden('not a member of this chat room');
    return me;
  }
}
