import { expect } from 'chai';
import type { Attachment, ChatMessage, MediaItem } from '@common/api';
import { decodeChatMessage } from '@common/events';
import { gridLayout } from './AttachmentView';
import { sendGroups } from './photoQueue';
import { photosOf, photosOfItems } from './roomMedia';

const photo = (id: string): Attachment => ({
  attachmentId: id.padEnd(22, 'x'), name: `${id}.png`, size: 10, contentType: 'image/png',
  url: `/api/attachments/${id.padEnd(22, 'x')}`, thumbnailUrl: `/api/attachments/${id.padEnd(22, 'x')}/thumbnail`,
});
const file = (name: string, type: string) => new File(['x'], name, { type });

describe('several photos at once (issue 27)', () => {
  it('lays out a grid of 2, 3, 4, 5 and 6 tiles, "+N" for the rest past six', () => {
    expect(gridLayout(2)).to.deep.equal({ shown: 2, more: 0, layout: 'two' });
    expect(gridLayout(3)).to.deep.equal({ shown: 3, more: 0, layout: 'three' });
    expect(gridLayout(4)).to.deep.equal({ shown: 4, more: 0, layout: 'four' });
    expect(gridLayout(5)).to.deep.equal({ shown: 5, more: 0, layout: 'five' });
    expect(gridLayout(6)).to.deep.equal({ shown: 6, more: 0, layout: 'six' });
    expect(gridLayout(30)).to.deep.equal({ shown: 6, more: 24, layout: 'six' });
  });

  it('sends picked photos together by 30, every other file alone, and one photo as before', () => {
    const photos = Array.from({ length: 31 }, (_, i) => file(`p${i}.jpg`, 'image/jpeg'));
    const pdf = file('a.pdf', 'application/pdf');
    const groups = sendGroups([pdf, ...photos]);
    expect(groups.map((g) => g.length)).to.deep.equal([30, 1, 1]);
    expect(groups[0][0].name).to.equal('p0.jpg');
    expect(groups[1][0].name).to.equal('p30.jpg');
    expect(groups[2]).to.deep.equal([pdf]);
    expect(sendGroups([photos[0], pdf]).map((g) => g.map((f) => f.name))).to.deep.equal([['p0.jpg'], ['a.pdf']]);
    expect(sendGroups([file('x.svg', 'image/svg+xml'), photos[0]]).map((g) => g.length)).to.deep.equal([1, 1]);
  });

  it('walks the room\'s photos oldest first, an album\'s in order, without deleted messages or files', () => {
    const base = { chatRoomId: 1, senderId: 2, senderName: 'A', content: '', enrolledAt: '2026-11-29T00:00:00.000Z' };
    const messages: ChatMessage[] = [
      { ...base, messageId: 1, seq: 1, attachment: photo('a') },
      { ...base, messageId: 2, seq: 2, attachment: photo('b'), attachments: [photo('b'), photo('c')] },
      { ...base, messageId: 3, seq: 3, deleted: true },
      { ...base, messageId: 4, seq: 4, attachment: { ...photo('d'), thumbnailUrl: undefined, contentType: 'application/pdf' } },
    ];
    expect(photosOf(messages).map((p) => [p.messageId, p.position, p.attachment.name])).to.deep.equal([[1, 0, 'a.png'], [2, 0, 'b.png'], [2, 1, 'c.png']]);
    const items: MediaItem[] = [
      { cursor: '2.1', messageId: 2, seq: 2, senderId: 2, senderName: 'A', sentAt: base.enrolledAt, attachment: photo('c') },
      { cursor: '2.0', messageId: 2, seq: 2, senderId: 2, senderName: 'A', sentAt: base.enrolledAt, attachment: photo('b') },
    ];
    expect(photosOfItems(items).map((p) => [p.messageId, p.position])).to.deep.equal([[2, 0], [2, 1]]);
  });

  it('reads a message\'s `attachments` only when two or more are well formed', () => {
    const raw = { messageId: 5, chatRoomId: 1, senderId: 2, senderName: 'A', content: '', enrolledAt: '2026-11-29T00:00:00.000Z', attachment: photo('a') };
    expect(decodeChatMessage({ ...raw, attachments: [photo('a'), photo('b')] }, 1)!.attachments?.length).to.equal(2);
    expect(decodeChatMessage({ ...raw, attachments: [photo('a'), { url: 'https://evil.example/x' }] }, 1)!.attachments).to.equal(undefined);
    expect(decodeChatMessage({ ...raw, attachments: [photo('a'), photo('b')], deleted: true }, 1)!.attachments).to.equal(undefined);
  });
});
