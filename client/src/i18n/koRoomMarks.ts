// The Korean strings of issues 25 and 26 that the chat list and the room show at once: a row's marks,
// the message menu's 공지로 등록 and the invite's note. Small on purpose: they ship with every
// signed-in screen (koRooms.ts holds the rest, in the lazy room-extras chunk).
export const koRoomMarks = {
  chatList: {
    /** A group call is on in the room (issue 25), with how many are in it. */
    groupCall: (participants: number) => `그룹통화 중 · ${participants}명`,
    mentioned: '나를 멘션함',
    muted: '알림 꺼짐',
    pinned: '고정됨',
  },
  invite: {
    privatePast: '초대된 사람은 초대된 후의 대화만 볼 수 있습니다.',
  },
  messageActions: {
    makeNotice: '공지로 등록',
  },
} as const;
