// The link preview card (issue 27): under the message's text, one keyboard-reachable link to the
// page in a new tab, showing title, description, site and our image (alt = title); a preview
// event fills in a message already on screen, never a deleted one.
import { expect } from 'chai';
import { cleanup, render, screen } from '@testing-library/react';
import type { ChatHistoryResponse, ChatMessage, LinkPreview } from '@common/api';
import { decodeRoomEvent } from '@common/events';
import { applyDeleted, applyLinkPreview } from './messageChanges';
import { LaidOutMessageList } from './messageList.test-support';
import { messagesAdapter } from './messages';
import { historyLoaded, linkPreviewArrived, messageReceived, roomOpened, roomReducer } from './roomSlice';

const ME = 1;
const IMAGE = '/api/link-previews/AAAAAAAAAAAAAAAAAAAAAA/image';
const message = (messageId: number, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  messageId, seq: messageId, senderId: 2, senderName: '김철수', content: 'https://example.com/a', enrolledAt: new Date().toISOString(), clientMsgId: null, ...extra,
});
const preview: LinkPreview = { url: 'https://example.com/a', title: '제목', description: '설명', siteName: 'Example', imageUrl: IMAGE };
const list = (messages: ChatMessage[]) =>
  render(<LaidOutMessageList messages={messages} pending={[]} myId={ME} hasOlder={false} loadingOlder={false} onNeedOlder={() => {}} />);

describe('the link preview card', () => {
  afterEach(() => cleanup());

  // The card's code loads with the first message that has one (the room-extras chunk): found, not got.
  it('shows title, description, site and image as one link opening the page in a new tab', async () => {
    list([message(1, { linkPreview: preview })]);
    const card = await screen.findByRole('link', { name: /제목/ });
    expect(card.getAttribute('href')).to.equal('https://example.com/a');
    expect(card.getAttribute('target')).to.equal('_blank');
    expect(card.getAttribute('rel')).to.equal('noopener noreferrer');
    expect(card.tabIndex).to.equal(0);
    expect(card.textContent).to.include('설명').and.include('Example');
    const image = screen.getByRole('img', { name: '제목' });
    expect(image.getAttribute('src')).to.equal(IMAGE);
  });

  it('names the site by its host when the page gave no title, name or image', async () => {
    list([message(1, { linkPreview: { url: 'https://example.com/a', title: null, description: null, siteName: null, imageUrl: null } })]);
    const card = await screen.findByTestId('link-preview');
    expect(card.textContent).to.equal('example.com');
    expect(card.querySelector('img')).to.equal(null);
  });

  it('shows no card for a message without a preview, nor for a deleted one', async () => {
    list([message(1), message(2, { content: '', deleted: true, linkPreview: preview }), message(3, { linkPreview: preview })]);
    // The one card shown is message 3's: once it is there, the others would be too.
    expect(await screen.findAllByTestId('link-preview')).to.have.length(1);
  });

  it('an arriving preview fills in the message on screen, but not a deleted one', () => {
    const event = decodeRoomEvent({ type: 'linkPreview', chatRoomId: 7, messageId: 1, linkPreview: preview }, 7);
    expect(event?.type).to.equal('linkPreview');
    let state = messagesAdapter.setAll(messagesAdapter.getInitialState(), [message(1), message(2)]);
    state = { ...state, entities: { ...state.entities } };
    applyDeleted(state, { messageId: 2, changeSeq: 1 });
    if (event?.type !== 'linkPreview') throw new Error('not decoded');
    applyLinkPreview(state, {}, event);
    applyLinkPreview(state, {}, { ...event, messageId: 2 });
    expect(state.entities[1].linkPreview).to.deep.equal(preview);
    expect(state.entities[2].linkPreview).to.equal(undefined);
  });

  it('keeps a preview that came before its message, or before a history page that replaces the message without it', () => {
    let room = roomReducer(undefined, roomOpened({ chatRoomId: 7, userId: ME }));
    room = roomReducer(room, linkPreviewArrived({ messageId: 1, linkPreview: preview }));
    room = roomReducer(room, messageReceived(message(1)));
    expect(room.messages.entities[1]?.linkPreview).to.deep.equal(preview);
    const page: ChatHistoryResponse = { chatRoomName: '방', users: [], messages: [message(1)], totalPages: 1 };
    room = roomReducer(room, historyLoaded(page));
    expect(room.messages.entities[1]?.linkPreview).to.deep.equal(preview);
  });

  it('drops a preview whose image is not ours or whose link is not http(s)', () => {
    expect(decodeRoomEvent({ type: 'linkPreview', chatRoomId: 7, messageId: 1, linkPreview: { ...preview, url: 'javascript:alert(1)' } }, 7)).to.equal(null);
    const decoded = decodeRoomEvent({ type: 'linkPreview', chatRoomId: 7, messageId: 1, linkPreview: { ...preview, imageUrl: 'https://evil.example/x.png' } }, 7);
    expect(decoded?.type === 'linkPreview' && decoded.linkPreview.imageUrl).to.equal(null);
  });
});
