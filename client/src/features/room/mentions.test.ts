import { expect } from 'chai';
import { insertMention, mentionCandidates, mentionedIds, mentionParts, mentionQuery } from './mentions';

const MEMBERS = [{ userId: 1, name: '김민지' }, { userId: 2, name: '김철수' }, { userId: 3, name: 'Ann' }, { userId: 4, name: 'Joanne' }];

describe('mentions', () => {
  it('finds the @ being typed before the caret, not an e-mail address or a finished word', () => {
    expect(mentionQuery('안녕 @김', 5)).to.deep.equal({ start: 3, query: '김' });
    expect(mentionQuery('@', 1)).to.deep.equal({ start: 0, query: '' });
    expect(mentionQuery('me@example', 10)).to.equal(null);
    expect(mentionQuery('@김철수 봐', 6)).to.equal(null);
    expect(mentionQuery('no at here', 5)).to.equal(null);
  });

  it('offers the other members, names starting with the query first', () => {
    expect(mentionCandidates(MEMBERS, 1, '김').map((m) => m.userId)).to.deep.equal([2]);
    expect(mentionCandidates(MEMBERS, 1, 'an').map((m) => m.name)).to.deep.equal(['Ann', 'Joanne']);
    expect(mentionCandidates(MEMBERS, 1, '').map((m) => m.userId)).to.deep.equal([2, 3, 4]);
  });

  it('replaces the query with the name and a space, and puts the caret after it', () => {
    expect(insertMention('안녕 @김 잘 지내?', 3, 5, '김철수')).to.deep.equal({ text: '안녕 @김철수  잘 지내?', caret: 8 });
  });

  it('finds whom a text mentions, once each, never the sender', () => {
    expect(mentionedIds('@Ann hi @Ann and @김민지', MEMBERS, 1)).to.deep.equal([3]);
    expect(mentionedIds('@Annie and mail@Ann', MEMBERS, 1)).to.deep.equal([]);
    expect(mentionedIds('@김철수님, @Joanne!', MEMBERS, 1)).to.deep.equal([2, 4]);
  });

  it('cuts a text around the mentions of the given names, the longest name first', () => {
    expect(mentionParts('hi @Joanne and @Ann.', ['Ann', 'Joanne'])).to.deep.equal([
      { text: 'hi ', mention: false }, { text: '@Joanne', mention: true }, { text: ' and ', mention: false }, { text: '@Ann', mention: true }, { text: '.', mention: false },
    ]);
    expect(mentionParts('no one @here', ['Ann'])).to.deep.equal([{ text: 'no one @here', mention: false }]);
  });
});
