import { expect } from 'chai';
import { backfillGrams } from '../../../../migrations/20261125140000_create_message_bigrams';
import { keywordGrams, messageGrams } from '../../../src/features/chat/message-grams';

const PLANE = 0x110000;
const cp = (c: string) => c.codePointAt(0)!;

describe('message grams (the search index)', () => {
  it('holds every non-space character and every adjacent pair, lower-cased, once each', () => {
    expect(messageGrams('회의 회의').sort((a, b) => a - b)).to.deep.equal([cp('의'), cp('회'), cp('회') * PLANE + cp('의')].sort((a, b) => a - b));
    expect(messageGrams('AB')).to.have.members([cp('a'), cp('b'), cp('a') * PLANE + cp('b')]);
    expect(messageGrams('👍a')).to.have.members([cp('👍'), cp('a'), cp('👍') * PLANE + cp('a')]);
    expect(messageGrams(' \n\t ')).to.deep.equal([]);
  });

  it('looks a keyword up by its bigrams (exact for two characters) or its characters (exact for one)', () => {
    expect(keywordGrams('회의')).to.deep.equal({ grams: [cp('회') * PLANE + cp('의')], exact: true });
    expect(keywordGrams('밥')).to.deep.equal({ grams: [cp('밥')], exact: true });
    expect(keywordGrams('Ab')).to.deep.equal({ grams: [cp('a') * PLANE + cp('b')], exact: true });
    expect(keywordGrams('회의실')).to.deep.equal({ grams: [cp('회') * PLANE + cp('의'), cp('의') * PLANE + cp('실')], exact: false });
    expect(keywordGrams('a b')).to.deep.equal({ grams: [cp('a'), cp('b')], exact: false });
  });

  it('is what the migration\'s frozen copy backfills', () => {
    for (const text of ['내일 회의는 3시입니다', 'MiXeD Case İstanbul ΣΑΣ', '👍😂 emoji\u3000wide space', 'snake_case 100% back\\slash', '']) {
      expect(backfillGrams(text)).to.deep.equal(messageGrams(text));
    }
  });
});
