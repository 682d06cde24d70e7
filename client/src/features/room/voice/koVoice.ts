// The Korean strings of voice messages (issue 27): they ship in the lazy voice chunk only.
export const koVoice = {
  recording: '녹음 중',
  slideToCancel: '밖으로 밀어서 취소',
  cancel: '녹음 취소',
  send: '음성 메시지 보내기',
  sending: '음성 메시지를 보내는 중…',
  starting: '마이크를 준비하는 중…',
  noMicrophone: '마이크를 사용할 수 없습니다. 브라우저의 마이크 권한을 확인해 주세요.',
  unsupported: '이 브라우저는 음성 녹음을 지원하지 않습니다.',
  tooShort: '녹음이 너무 짧습니다.',
  failed: '음성 메시지를 보내지 못했습니다. 다시 시도해 주세요.',
  refused: (why: string) => `음성 메시지를 보내지 못했습니다: ${why}`,
  limitReached: '5분이 되어 녹음을 마쳤습니다.',
  play: '재생',
  pause: '일시정지',
  position: '재생 위치',
  speed: (rate: number) => `재생 속도 ${rate}×`,
  player: '음성 메시지',
} as const;

/** m:ss of a length in milliseconds. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
