// Uploading a recording as a voice message: POST /api/chat-room/attachments?kind=voice with the
// recording's audio type (docs/protocol.md); the server answers the attachment with its length
// and waveform, or refuses with a message that says why.
import { api, type Attachment } from '@common/api';

export class VoiceRefused extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export async function uploadVoice(chatRoomId: number, recording: Blob, signal?: AbortSignal): Promise<Attachment> {
  const res = await fetch(`${api.attachmentUpload}?chatRoomId=${chatRoomId}&kind=voice`, {
    method: 'POST',
    headers: { 'Content-Type': recording.type || 'audio/webm', 'X-File-Name': encodeURIComponent('음성 메시지.webm') },
    body: recording,
    credentials: 'same-origin',
    signal,
  });
  if (res.ok) return (await res.json()) as Attachment;
  let message = '';
  try {
    const said = ((await res.json()) as { message?: unknown }).message;
    if (typeof said === 'string') message = said;
  } catch {
    // no JSON body
  }
  throw new VoiceRefused(res.status, message);
}
