// MessageList as the component tests render it: from stored messages and pending sends, laid out
// as the room's selectMessageItems lays them out in the app.
import type { ChatMessage } from '@common/api';
import { layoutMessages } from './messageLayout';
import { MessageList, type MessageListProps } from './MessageList';
import type { PendingMessage } from './messages';

export function LaidOutMessageList({ messages, pending, ...props }: Omit<MessageListProps, 'items'> & { messages: readonly ChatMessage[]; pending: readonly PendingMessage[] }) {
  return <MessageList items={layoutMessages(messages, pending, props.myId)} {...props} />;
}
