import { expect } from 'chai';
import type { MessageSearchResult } from '@common/api';
import { excerptAround, highlightParts } from './highlight';
import { messageSearchReducer, moreRequested, resultsLoaded, searchFailed, searchRequested } from './messageSearchSlice';

const result = (messageId: number): MessageSearchResult => ({ chatRoomId: 1, chatRoomName: 'R', messageId, seq: messageId, senderName: 'A', content: `c${messageId}`, enrolledAt: 't' });

describe('highlighting a search keyword', () => {
  it('marks every occurrence, Korean as written and Latin letters in any case', () => {
    expect(highlightParts('내일 회의 회의실', '회의')).to.deep.equal([
      { text: '내일 ', match: false }, { text: '회의', match: true }, { text: ' ', match: false }, { text: '회의', match: true }, { text: '실', match: false },
    ]);
    expect(highlightParts('Hello HELLO', 'hello').filter((p) => p.match).map((p) => p.text)).to.deep.equal(['Hello', 'HELLO']);
  });

  it('leaves text without a match (or with a blank keyword) whole, and markup as plain text', () => {
    expect(highlightParts('<b>x</b>', 'zz')).to.deep.equal([{ text: '<b>x</b>', match: false }]);
    expect(highlightParts('abc', '  ')).to.deep.equal([{ text: 'abc', match: false }]);
  });

  it('shows a long message around its first match', () => {
    const long = `${'가'.repeat(300)}검색어${'나'.repeat(300)}`;
    const shown = excerptAround(long, '검색어');
    expect(shown).to.contain('검색어');
    expect(shown.startsWith('…')).to.equal(true);
    expect(excerptAround('짧은 글', '글')).to.equal('짧은 글');
  });
});

describe('the message search state', () => {
  it('keeps the room\'s and the chat list\'s searches apart and drops a late answer to an earlier keyword', () => {
    let s = messageSearchReducer(undefined, searchRequested({ scope: 'room', keyword: ' 회의 ', chatRoomId: 4 }));
    s = messageSearchReducer(s, searchRequested({ scope: 'all', keyword: '점심' }));
    expect(s.room).to.include({ keyword: '회의', chatRoomId: 4, status: 'loading' });
    s = messageSearchReducer(s, resultsLoaded({ scope: 'room', keyword: '예전', results: [result(1)], hasMore: false, more: false }));
    expect(s.room.status).to.equal('loading');
    s = messageSearchReducer(s, resultsLoaded({ scope: 'room', keyword: '회의', results: [], hasMore: false, more: false }));
    expect(s.room).to.include({ status: 'done' });
    expect(s.room.results).to.deep.equal([]);
    expect(s.all.status).to.equal('loading');
    s = messageSearchReducer(s, searchFailed({ scope: 'all', keyword: '점심' }));
    expect(s.all.status).to.equal('failed');
  });

  it('appends the next page once each', () => {
    let s = messageSearchReducer(undefined, searchRequested({ scope: 'all', keyword: 'a' }));
    s = messageSearchReducer(s, resultsLoaded({ scope: 'all', keyword: 'a', results: [result(9), result(8)], hasMore: true, more: false }));
    s = messageSearchReducer(s, moreRequested('all'));
    expect(s.all.loadingMore).to.equal(true);
    s = messageSearchReducer(s, resultsLoaded({ scope: 'all', keyword: 'a', results: [result(8), result(7)], hasMore: false, more: true }));
    expect(s.all.results.map((r) => r.messageId)).to.deep.equal([9, 8, 7]);
    expect(s.all).to.include({ hasMore: false, loadingMore: false });
  });

  it('searches nothing for a blank keyword', () => {
    expect(messageSearchReducer(undefined, searchRequested({ scope: 'all', keyword: '   ' })).all.status).to.equal('idle');
  });
});
