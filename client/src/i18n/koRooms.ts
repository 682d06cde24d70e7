// The Korean strings of issue 26's room extras: the notice banner, the mention picker, the room
// menu's switches and their requests. Apart from ko.ts (which /login carries) and from
// koRoomMarks.ts (what the chat list and the room show at once): they ship with the lazy
// room-extras chunk.
export const koRooms = {
  /** The room's notice (공지) at the top of the room. */
  notice: {
    region: '공지',
    expand: '펼치기',
    collapse: '접기',
    hide: '공지 숨기기',
    remove: '공지 내리기',
    removeConfirm: '공지를 내리면 모든 참여자에게서 사라집니다. 내리시겠습니까?',
    setBy: (name: string) => `${name}님이 등록`,
    failed: '공지를 바꾸지 못했습니다. 잠시 후 다시 시도해주세요.',
    gone: '삭제된 메시지는 공지로 등록할 수 없습니다.',
  },

  /** @ mentions in the composer and in messages. */
  mention: {
    picker: '멘션할 사람',
  },

  /** The member's own settings of a room (the room menu). */
  roomSettings: {
    mute: '알림 끄기',
    unmute: '알림 켜기',
    pin: '채팅방 고정',
    unpin: '고정 해제',
    failed: '설정을 바꾸지 못했습니다. 잠시 후 다시 시도해주세요.',
  },
} as const;
