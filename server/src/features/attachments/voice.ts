// Voice messages (docs/protocol.md, attachments, kind=voice): the server decodes the uploaded
// audio with ffmpeg (Debian's, on PATH; docs/operations.md) to learn its length and a waveform of
// WAVEFORM_LEVELS levels, 0..255 (the peak of each 64th of the recording, scaled so the loudest is
// 255). ffmpeg is spawned with an argument array (no shell), fed the stored bytes on stdin, and
// answers mono 8 kHz 16-bit PCM on stdout, at most MAX_VOICE_MS (plus a little) of it: the output
// is bounded, the process killed after VOICE_TIMEOUT_MS, and decodes run in a small fair pool
// (fair-queue.ts: one per user at once, users in turn), so one user cannot hog the CPU.
import { spawn } from 'node:child_process';
import { FairQueue } from './fair-queue';

export const WAVEFORM_LEVELS = 64;
/** A voice message lasts at most 5 minutes. */
export const MAX_VOICE_MS = 5 * 60_000;
export const VOICE_TIMEOUT_MS = 30_000;
const RATE = 8000;
/** Decoded a little past the limit, so a longer recording is seen to be longer. */
const DECODE_LIMIT_S = MAX_VOICE_MS / 1000 + 1;
const MAX_PCM_BYTES = DECODE_LIMIT_S * RATE * 2;

export interface VoiceFacts {
  durationMs: number;
  /** WAVEFORM_LEVELS levels, 0..255. */
  waveform: number[];
}

/** Why a recording was refused: not decodable, too long, or no ffmpeg on this server. */
export class VoiceError extends Error {
  constructor(readonly reason: 'unreadable' | 'too-long' | 'unavailable', message: string) {
    super(message);
  }
}

/** Reads a voice message's length and waveform, in turn with other users'. */
export type VoiceAnalyzer = (userId: number, source: AsyncIterable<Buffer>) => Promise<VoiceFacts>;

export function voicePool(slots: number, ffmpegPath = 'ffmpeg'): VoiceAnalyzer {
  const queue = new FairQueue({ slots, perKey: 1 });
  return (userId, source) => queue.run(userId, () => analyzeVoice(source, ffmpegPath));
}

/** The waveform of mono 16-bit little-endian PCM: the peak of each of WAVEFORM_LEVELS equal parts, the loudest 255. */
export function waveformOf(pcm: Buffer): number[] {
  const samples = Math.floor(pcm.length / 2);
  const peaks = new Array<number>(WAVEFORM_LEVELS).fill(0);
  for (let i = 0; i < samples; i += 1) {
    const level = Math.abs(pcm.readInt16LE(i * 2));
    const bucket = Math.min(WAVEFORM_LEVELS - 1, Math.floor((i * WAVEFORM_LEVELS) / samples));
    if (level > peaks[bucket]) peaks[bucket] = level;
  }
  const loudest = Math.max(...peaks);
  return peaks.map((p) => (loudest === 0 ? 0 : Math.round((p / loudest) * 255)));
}

/** Decodes the recording with ffmpeg and answers its length and waveform; VoiceError when it cannot. */
export async function analyzeVoice(source: AsyncIterable<Buffer>, ffmpegPath = 'ffmpeg'): Promise<VoiceFacts> {
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-i', 'pipe:0', '-t', String(DECODE_LIMIT_S), '-vn', '-ac', '1', '-ar', String(RATE), '-f', 's16le', 'pipe:1'];
  const child = spawn(ffmpegPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let outBytes = 0;
  let overflow = false;
  let stderr = '';
  const exited = new Promise<{ code: number | null; error: NodeJS.ErrnoException | null }>((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) => resolve({ code: null, error }));
    child.on('close', (code) => resolve({ code, error: null }));
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), VOICE_TIMEOUT_MS);
  child.stdout.on('data', (piece: Buffer) => {
    outBytes += piece.length;
    if (outBytes > MAX_PCM_BYTES + 4096) {
      overflow = true;
      child.kill('SIGKILL');
      return;
    }
    out.push(piece);
  });
  child.stderr.on('data', (piece: Buffer) => {
    if (stderr.length < 2000) stderr += piece.toString('utf8');
  });
  // ffmpeg may stop reading early (an error, or the limit reached): a broken pipe is no failure of ours.
  child.stdin.on('error', () => {});
  const feed = (async () => {
    try {
      for await (const piece of source) {
        if (child.stdin.destroyed) break;
        if (!child.stdin.write(piece)) await new Promise<void>((resolve) => { child.stdin.once('drain', resolve); child.once('close', resolve); });
      }
    } finally {
      child.stdin.end();
    }
  })();
  const [{ code, error }] = await Promise.all([exited, feed.catch(() => {})]);
  clearTimeout(timer);
  if (error?.code === 'ENOENT' || error?.code === 'EACCES') {
    throw new VoiceError('unavailable', '이 서버에서는 음성 메시지를 받을 수 없습니다 (ffmpeg가 설치되어 있지 않습니다)');
  }
  if (error) throw new VoiceError('unreadable', '음성 파일을 읽을 수 없습니다');
  const pcm = Buffer.concat(out);
  const durationMs = Math.round((Math.floor(pcm.length / 2) / RATE) * 1000);
  if (overflow || durationMs > MAX_VOICE_MS) throw new VoiceError('too-long', '음성 메시지는 5분까지 보낼 수 있습니다');
  if (code !== 0 || durationMs === 0) throw new VoiceError('unreadable', '음성 파일을 읽을 수 없습니다: 오디오가 아니거나 손상된 파일입니다');
  return { durationMs, waveform: waveformOf(pcm) };
}
