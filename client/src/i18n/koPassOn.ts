// The Korean strings of issue 27's passing on that ship with the room at once: the forwarded mark
// and the copy's confirmation and failure. Small on purpose; the menu items', the picker's and the selection bar's
// strings are in koPassOnExtras.ts, in the lazy pass-on chunk.
export const koPassOn = {
  forwarded: '전달됨',
  copied: '복사되었습니다.',
  copyFailed: '복사하지 못했습니다. 브라우저가 클립보드 사용을 허용하는지 확인해주세요.',
} as const;
