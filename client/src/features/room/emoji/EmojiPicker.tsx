// Any emoji (issue 27): emoji-picker-element, in Korean, its data (emoji-picker-element-data's
// Korean CLDR set) served by us as a file of the build: never fetched from a CDN. The picker
// keeps recently used emoji itself (IndexedDB, its '자주 쓰는 이모티콘' row). Escape or a click
// outside closes it; a pick answers the emoji and closes it.
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { Picker } from 'emoji-picker-element';
import type { EmojiClickEvent, I18n } from 'emoji-picker-element/shared';
import dataSource from 'emoji-picker-element-data/ko/cldr/data.json?url';
import './emoji.css';

const KO: I18n = {
  categoriesLabel: '분류',
  emojiUnsupportedMessage: '이 브라우저는 컬러 이모티콘을 표시할 수 없습니다.',
  favoritesLabel: '자주 쓰는 이모티콘',
  loadingMessage: '불러오는 중…',
  networkErrorMessage: '이모티콘을 불러오지 못했습니다.',
  regionLabel: '이모티콘 선택',
  searchDescription: '검색 결과는 화살표 키로 고르고 Enter로 선택합니다.',
  searchLabel: '검색',
  searchResultsLabel: '검색 결과',
  skinToneDescription: '펼쳐서 화살표 키로 고르고 Enter로 선택합니다.',
  skinToneLabel: '피부색 선택 (현재: {skinTone})',
  skinTonesLabel: '피부색',
  skinTones: ['기본', '밝은 피부색', '조금 밝은 피부색', '중간 피부색', '조금 어두운 피부색', '어두운 피부색'],
  categories: {
    custom: '사용자 지정',
    'smileys-emotion': '표정과 감정',
    'people-body': '사람과 몸',
    'animals-nature': '동물과 자연',
    'food-drink': '음식과 음료',
    'travel-places': '여행과 장소',
    activities: '활동',
    objects: '사물',
    symbols: '기호',
    flags: '깃발',
  },
};

export const EMOJI_PICKER_LABEL = '이모티콘 고르기';

export default function EmojiPicker({ onPick, onClose }: { onPick(emoji: string): void; onClose(): void }) {
  const host = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  const close = useRef(onClose);
  pick.current = onPick;
  close.current = onClose;

  useEffect(() => {
    const box = host.current;
    if (!box) return;
    const picker = new Picker({ locale: 'ko', dataSource, i18n: KO });
    picker.setAttribute('data-testid', 'emoji-picker');
    const onClick = (event: EmojiClickEvent) => {
      const emoji = event.detail.unicode;
      if (emoji) pick.current(emoji);
      close.current();
    };
    picker.addEventListener('emoji-click', onClick);
    box.appendChild(picker);
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      close.current();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!box.contains(event.target as Node)) close.current();
    };
    window.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onPointerDown);
    // The search box takes the focus: type to find, arrows and Enter to pick.
    requestAnimationFrame(() => picker.shadowRoot?.querySelector<HTMLInputElement>('input')?.focus());
    return () => {
      picker.removeEventListener('emoji-click', onClick);
      window.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onPointerDown);
      picker.remove();
    };
  }, []);

  // Over the page, never inside a message's box (which may clip or move it).
  return createPortal(<div ref={host} className="emoji-popover" role="dialog" aria-label={EMOJI_PICKER_LABEL} />, document.body);
}
