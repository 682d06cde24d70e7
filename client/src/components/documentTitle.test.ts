import { expect } from 'chai';
import { screenTitle, titleWithCount } from './documentTitle';

describe('the tab title count', () => {
  const table: Array<[string, number, string]> = [
    ["Let's Chat", 0, "Let's Chat"],
    ["Let's Chat", 3, "(3) Let's Chat"],
    ["(3) Let's Chat", 4, "(4) Let's Chat"],
    ["(12) Let's Chat", 0, "Let's Chat"],
    ['(준비) 제목', 1, '(1) (준비) 제목'],
  ];
  for (const [title, count, expected] of table) {
    it(`turns "${title}" with ${count} new into "${expected}"`, () => {
      expect(titleWithCount(title, count)).to.equal(expected);
    });
  }
});

describe('the screen title', () => {
  it('names the screen before the app, or the app alone', () => {
    expect(screenTitle('채팅')).to.equal("채팅 - Let's Chat");
    expect(screenTitle(null)).to.equal("Let's Chat");
    expect(titleWithCount(screenTitle('저녁 약속'), 2)).to.equal("(2) 저녁 약속 - Let's Chat");
  });
});
