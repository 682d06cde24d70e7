// The home's tabs and the user search's two-character hint (issue 26): apart from ko.ts so that
// /login, which shows neither, does not carry them (its budget, docs/benchmarks.md).
export const koHome = {
  /** The signed-in home's tabs, KakaoTalk's. */
  tabs: {
    nav: '홈',
    friends: '친구',
    chats: '채팅',
    calls: '통화',
  },
  /** The server searches two characters or more. */
  minChars: '두 글자 이상 입력하세요.',
} as const;
