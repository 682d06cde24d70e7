// The room topic as a saga channel: messages, "subscribed" after every (re)subscription (time to
// fetch what was missed) and "disconnected". Buffered without limit: no message may be dropped
// while the saga is busy fetching.
import { buffers, eventChannel, type EventChannel } from 'redux-saga';
import type { ChatMessage } from '@common/api';
import { topics } from '@common/destinations';
import { decodeChatMessage } from '@common/events';
import type { StompService } from '../../services/stomp';

export type RoomEvent = { type: 'message'; message: ChatMessage } | { type: 'subscribed' } | { type: 'disconnected' };

export function roomEventChannel(stomp: StompService, chatRoomId: number): EventChannel<RoomEvent> {
  return eventChannel<RoomEvent>((emit) => {
    const stopListening = stomp.onConnectionChange((connected) => {
      if (!connected) emit({ type: 'disconnected' });
    });
    const unsubscribe = stomp.subscribe(topics.privateChat(chatRoomId), {
      message: (body) => {
        const message = decodeChatMessage(body, chatRoomId);
        if (message) emit({ type: 'message', message });
        else console.error('[room] ignored a malformed message', body);
      },
      active: () => emit({ type: 'subscribed' }),
    });
    return () => {
      unsubscribe();
      stopListening();
    };
  }, buffers.expanding<RoomEvent>(64));
}
