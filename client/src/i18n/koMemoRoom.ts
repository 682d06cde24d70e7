// The Korean strings of 나와의 채팅's entry in the chat list (issue 27), in its lazy memo-room chunk.
export const koMemoRoom = {
  name: '나와의 채팅',
  note: '메모와 링크를 나에게 보내 보관하세요',
  failed: '나와의 채팅을 열지 못했습니다. 잠시 후 다시 시도해주세요.',
} as const;
