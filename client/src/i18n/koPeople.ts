// The strings of the people screens (issue 26): the friends tab, the profile card and the
// settings' photo, status message and 차단 관리. Apart from ko.ts so that they travel only with
// the friends feature's chunks, not with every screen (/login's budget, docs/benchmarks.md).
export const koPeople = {
  /** Ours (issue 26): the friends tab. */
  friends: {
    title: '친구',
    search: '친구 검색',
    me: '내 프로필',
    favourites: '즐겨찾기',
    friends: '친구',
    empty: '아직 친구가 없습니다.',
    emptyHint: '대화상대 검색에서 사람을 찾아 친구로 추가해보세요.',
    noMatch: '검색 결과가 없습니다',
    findUser: '대화상대 검색',
    loadFailed: '친구 목록을 불러오지 못했습니다. 잠시 후 다시 시도해주세요.',
  },

  /** Ours (issue 26): a person's profile card. */
  profileCard: {
    close: '닫기',
    chat: '1:1 채팅',
    voiceCall: '음성통화',
    videoCall: '영상통화',
    addFriend: '친구 추가',
    removeFriend: '친구 삭제',
    favourite: '즐겨찾기',
    block: '차단',
    unblock: '차단 해제',
    confirmBlock: (name: string) => `${name}님을 차단할까요? 차단한 사람의 메시지와 전화는 오지 않습니다.`,
    self: '나',
    failed: {
      load: '정보를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.',
      friend: '친구 목록을 바꾸지 못했습니다. 잠시 후 다시 시도해주세요.',
      block: '차단을 바꾸지 못했습니다. 잠시 후 다시 시도해주세요.',
      status: '상태 메시지를 저장하지 못했습니다. 잠시 후 다시 시도해주세요.',
      photo: '프로필 사진을 바꾸지 못했습니다. 잠시 후 다시 시도해주세요.',
    },
  },

  /** The settings' people parts (features/friends/PeopleSettings.tsx). */
  settings: {
    profile: '프로필',
    changePhoto: '프로필 사진 변경',
    deletePhoto: '프로필 사진 삭제',
    photoTypes: 'JPEG, PNG, WebP · 10MB 이하',
    photoUploading: (percent: number) => `업로드 중... ${percent}%`,
    photoTooLarge: '10MB 이하의 사진만 올릴 수 있습니다.',
    photoWrongType: 'JPEG, PNG, WebP 사진만 올릴 수 있습니다.',
    photoRefused: '사진을 올리지 못했습니다. 다른 사진으로 다시 시도해주세요.',
    photoFailed: '사진을 올리지 못했습니다. 잠시 후 다시 시도해주세요.',
    statusMessage: '상태 메시지',
    saveStatus: '저장',
    statusSaved: '상태 메시지를 저장했습니다.',
    blocks: '차단 관리',
    unblock: '차단 해제',
    noBlocks: '차단한 사람이 없습니다.',
  },
} as const;
