// The room's e-mail notification: one mail to each other member, each addressed to that member
// alone, at most once per room every 3 minutes (kept in the database so every node agrees).
// Ours: a member who blocked the caller is not mailed, and counted in `sent` as if they were,
// so the caller cannot tell (docs/protocol.md, blocks).
import { LIMITS } from '@common/rules';
import { RateLimitedError, UpstreamFailedError } from '../errors';
import type { Mailer } from '../mail/mailer';
import type { BlockLookup } from './block-lookup';
import type { Clock } from '../types';
import { requireMember } from './membership';
import type { RoomsRepository } from './rooms-repository';

export interface NotificationMailDeps {
  rooms: RoomsRepository;
  mailer: Mailer;
  clock: Clock;
  publicUrl: string;
  blocks: Pick<BlockLookup, 'blockersOf'>;
}

export function roomLink(publicUrl: string, roomId: number): string {
  return `${publicUrl}/chat-room?cri=${roomId}`;
}

export class NotificationMail {
  constructor(private readonly deps: NotificationMailDeps) {}

  async notify(callerId: number, roomId: number): Promise<{ sent: number }> {
    const { rooms, mailer, clock, publicUrl, blocks } = this.deps;
    const { me: caller, members } = await requireMember(rooms, roomId, callerId);
    const now = clock();
    const claim = await rooms.claimNotification(roomId, now, LIMITS.notificationIntervalMs);
    if (!claim.claimed) {
      const waitMs = claim.lastAtMs + LIMITS.notificationIntervalMs - now;
      throw new RateLimitedError(waitMs / 1000, '알림 이메일은 3분에 한 번만 보낼 수 있습니다.');
    }
    const roomName = (await rooms.roomName(roomId)) ?? '';
    const link = roomLink(publicUrl, roomId);
    const blockers = await blocks.blockersOf(callerId);
    const recipients = members.filter((u) => u.id !== callerId && !blockers.has(u.id));
    const unmailed = members.length - 1 - recipients.length;
    const results = await Promise.allSettled(
      recipients.map((u) =>
        mailer.send({
          to: u.email,
          subject: `[Let's Chat] "${roomName}" 채팅방 알림`,
          text: `${caller.name}님이 "${roomName}" 채팅방에서 알림을 보냈습니다.\n아래 링크에서 대화를 확인해주세요.\n\n${link}\n`,
        }),
      ),
    );
    const sent = results.filter((r) => r.status === 'fulfilled').length;
    if (sent < recipients.length) {
      // Free the slot for another try only when nobody was mailed: a retry after a partial
      // failure would mail the reached members twice.
      if (sent === 0) await rooms.releaseNotification(roomId, now, claim.previousAtMs);
      throw new UpstreamFailedError('알림 이메일을 보내지 못했습니다. 잠시 후 다시 시도해주세요.', 'mail_failed');
    }
    return { sent: sent + unmailed };
  }
}
