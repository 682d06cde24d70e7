import { expect } from 'chai';
import { hasForbiddenCharacters, isSearchableKeyword, isSendableMessage, isValidEmail, isValidName, isValidRoomName, isReaction, isSingleEmoji, LOOSE_EMOJI, isValidStatusMessage, normalizeName, toPositiveId } from './rules';

describe('validation rules (docs/spec.md §5)', () => {
  it('accepts names that start with a letter or - . \' and continue with letters, spaces or - . \'', () => {
    for (const ok of ['Kim', '김철수', "O'Brien", '-dash', '.dot', 'Mary Ann', 'ㄱㄴ', 'a'.repeat(100)]) {
      expect(isValidName(ok), ok).to.equal(true);
    }
  });
  it('refuses empty, too long, digit-led or symbol-bearing names', () => {
    for (const bad of ['', ' Kim', '1abc', 'abc1', 'a_b', 'a@b', '<script>', 'a'.repeat(101)]) {
      expect(isValidName(bad), bad).to.equal(false);
    }
  });
  it('checks e-mail shape and the 100-character limit', () => {
    expect(isValidEmail('a@b.co')).to.equal(true);
    expect(isValidEmail('a@b')).to.equal(false);
    expect(isValidEmail('a b@c.de')).to.equal(false);
    expect(isValidEmail('x\r\nBcc: y@z.io')).to.equal(false);
    expect(isValidEmail(`${'a'.repeat(96)}@b.co`)).to.equal(false);
  });
  it('sends no search for an empty or %-only keyword', () => {
    expect(isSearchableKeyword('  ')).to.equal(false);
    expect(isSearchableKeyword(' % ')).to.equal(false);
    expect(isSearchableKeyword('%a')).to.equal(true);
  });
  it('sends no blank message and none over 3000 characters', () => {
    expect(isSendableMessage(' \n ')).to.equal(false);
    expect(isSendableMessage('a'.repeat(3000))).to.equal(true);
    expect(isSendableMessage('a'.repeat(3001))).to.equal(false);
    expect(isSendableMessage(` ${'a'.repeat(3000)}\n`), 'limit applies after trimming').to.equal(true);
  });
  it('allows room names of 1 to 50 characters after trimming', () => {
    expect(isValidRoomName('  ')).to.equal(false);
    expect(isValidRoomName('a'.repeat(50))).to.equal(true);
    expect(isValidRoomName('a'.repeat(51))).to.equal(false);
  });
  it('reads a positive integer id from a number or a numeric string, and nothing else', () => {
    expect(toPositiveId(7)).to.equal(7);
    expect(toPositiveId('42')).to.equal(42);
    for (const bad of [0, -1, 1.5, '0', '', ' 7', '7a', '-3', '12345678901234567', Number.MAX_SAFE_INTEGER + 1, null, undefined, {}]) {
      expect(toPositiveId(bad), String(bad)).to.equal(null);
    }
  });
  it('allows only the ASCII space as whitespace in a name, and not at its end', () => {
    for (const bad of ['Alice\uFEFF', 'Al\u00A0ice', 'Al\tice', 'Al\nice', 'Al\rice', 'Al\u2028ice', 'Alice ']) {
      expect(isValidName(bad), JSON.stringify(bad)).to.equal(false);
    }
    expect(isValidName('Mary Ann')).to.equal(true);
  });
  it('checks and stores names in NFC, so decomposed Hangul is the same name', () => {
    const decomposed = '\u1100\u1175\u11B7'; // 김 as three jamo
    expect(normalizeName(decomposed)).to.equal('김');
    expect(isValidName(decomposed)).to.equal(true);
  });
  it('refuses controls, bidi overrides and lone surrogates in messages and room names', () => {
    for (const bad of ['a\u0000b', 'a\u0007b', 'a\u0085b', 'a\u202Eb', 'a\u2066b', 'a\uD800b', 'a\uDC00b']) {
      expect(isSendableMessage(bad), JSON.stringify(bad)).to.equal(false);
      expect(isValidRoomName(bad), JSON.stringify(bad)).to.equal(false);
    }
    expect(isSendableMessage('line one\n\tline two')).to.equal(true);
    expect(isValidRoomName('a\tb')).to.equal(false);
    expect(isSendableMessage('웃음 😀 emoji')).to.equal(true);
    expect(hasForbiddenCharacters('😀', 'name')).to.equal(false);
  });
  it('refuses the Hangul fillers anywhere in a name, and in room names', () => {
    for (const filler of ['\u3164', '\u115F', '\u1160', '\uFFA0']) {
      for (const bad of [filler, `alice${filler}`, `${filler}alice`, `김${filler}철수`]) {
        expect(isValidName(bad), JSON.stringify(bad)).to.equal(false);
        expect(isValidRoomName(bad), JSON.stringify(bad)).to.equal(false);
      }
    }
    expect(isValidName('ㄱㅎㅏㆎ'), 'the compatibility jamo around the filler').to.equal(true);
  });
  it('refuses invisible, bidi-mark and separator characters in messages and room names', () => {
    const invisible = ['\u200B', '\u200C', '\u200D', '\u200E', '\u200F', '\u202A', '\u202E', '\u2060', '\u2064', '\u2066', '\u2069', '\u061C', '\u2028', '\u2029', '\uFEFF'];
    for (const c of invisible) {
      for (const bad of [`a${c}b`, `${c}hello`, `hello${c}`, c]) {
        expect(isSendableMessage(bad), JSON.stringify(bad)).to.equal(false);
        expect(hasForbiddenCharacters(bad, 'message'), JSON.stringify(bad)).to.equal(true);
        expect(isValidRoomName(bad), JSON.stringify(bad)).to.equal(false);
      }
    }
  });
  it('keeps the zero-width joiner inside emoji sequences, and only there', () => {
    for (const ok of ['\u{1F469}\u200D\u{1F4BB}', '\u{1F3F3}\uFE0F\u200D\u{1F308}', '\u{1F469}\u{1F3FD}\u200D\u{1F4BB} 코딩', '\u{1F9D1}\u200D\u2695\uFE0F']) {
      expect(isSendableMessage(ok), JSON.stringify(ok)).to.equal(true);
      expect(isValidRoomName(ok), JSON.stringify(ok)).to.equal(true);
    }
    for (const bad of ['a\u200D\u{1F4BB}', '\u{1F469}\u200Db', '\u{1F469}\u200D', '\u200D\u{1F4BB}']) {
      expect(isSendableMessage(bad), JSON.stringify(bad)).to.equal(false);
    }
  });
  it('finds nobody for a keyword with control characters', () => {
    expect(isSearchableKeyword('\u0000')).to.equal(false);
    expect(isSearchableKeyword('a\u0000')).to.equal(false);
  });
  it('takes a status message of up to 60 characters once trimmed (empty clears it), refusing what names refuse', () => {
    for (const ok of ['', '   ', '오늘은 바빠요! 📵', '가'.repeat(60), `  ${'a'.repeat(60)}  `, '\u{1F469}\u200D\u{1F4BB} 코딩 중']) {
      expect(isValidStatusMessage(ok), JSON.stringify(ok)).to.equal(true);
    }
    for (const bad of ['가'.repeat(61), 'a\nb', 'tab\there', 'hi\u200Bthere', 'rtl\u202Eevil', '\u3164', 'x\u0000']) {
      expect(isValidStatusMessage(bad), JSON.stringify(bad)).to.equal(false);
    }
  });
});

describe('reactions: any single emoji (docs/protocol.md /app/reaction)', () => {
  it('accepts one emoji: the quick six, flags, keycaps, ZWJ sequences, skin tones, tag flags', () => {
    for (const ok of ['👍', '❤️', '😂', '🙏', '🇰🇷', '🇺🇸', '1️⃣', '👩‍💻', '👨‍👩‍👧‍👦', '🏳️‍🌈', '👍🏽', '🧑🏿‍🚀', '👩🏻‍❤️‍💋‍👨🏼', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '🫠', '☕']) {
      expect(isSingleEmoji(ok), ok).to.equal(true);
      expect(isReaction(ok), ok).to.equal(true);
    }
  });
  it('refuses two emoji, letters, digits, an emoji with text, whitespace and non-strings', () => {
    for (const bad of ['', '👍👍', '🇰🇷🇺🇸', 'a', '가', '1', '#', '👍 ', ' 👍', '👍a', 'ok👍', '\u200D', '👍\u200D', 'ㅋ', '♥', '™', '👍🏽🏽']) {
      expect(isSingleEmoji(bad), JSON.stringify(bad)).to.equal(false);
    }
    for (const bad of [null, undefined, 1, ['👍'], { emoji: '👍' }]) expect(isReaction(bad)).to.equal(false);
  });
  it('has a looser stand-in for browsers without the v flag or Intl.Segmenter, refusing text and two flags', () => {
    for (const ok of ['👍', '❤️', '🇰🇷', '1️⃣', '👩‍💻', '👨‍👩‍👧‍👦', '🏳️‍🌈', '👍🏽', '🏴󠁧󠁢󠁳󠁣󠁴󠁿']) expect(LOOSE_EMOJI.test(ok), ok).to.equal(true);
    for (const bad of ['', 'a', '1', '가', '👍 ', '👍a', 'ok👍', '🇰🇷🇺🇸', '\u200D']) expect(LOOSE_EMOJI.test(bad), JSON.stringify(bad)).to.equal(false);
  });
});
