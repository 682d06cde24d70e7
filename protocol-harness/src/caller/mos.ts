// An E-model MOS estimate (ITU-T G.107, simplified as is usual for VoIP monitoring): the rating R
// falls with mouth-to-ear delay (Id) and with effective packet loss (Ie-eff), and MOS follows from
// R. Opus has no G.113 impairment figures; the values below are assumptions stated once, here.

/** R0 − Is for the default G.107 parameters: the best rating a clean, delay-free call gets. */
const R_BASE = 93.2;
/** Equipment impairment of Opus at speech bitrates with no loss: treated as transparent. */
const OPUS_IE = 0;
/**
 * Packet-loss robustness of Opus with its concealment (no in-band FEC): between G.711 with PLC
 * (25.1) and codecs that conceal worse; the lower the value, the faster MOS falls with loss.
 */
const OPUS_BPL = 20;
/** One Opus frame of packetisation plus its look-ahead, added to the network delay. */
const CODEC_DELAY_MS = 26.5;

/** The delay impairment Id of G.107's simplified form (Cole and Rosenbluth). */
export function delayImpairment(oneWayDelayMs: number): number {
  const d = Math.max(0, oneWayDelayMs);
  return 0.024 * d + (d > 177.3 ? 0.11 * (d - 177.3) : 0);
}

/** Ie-eff for random loss (BurstR = 1). */
export function lossImpairment(lossPct: number): number {
  const ppl = Math.min(100, Math.max(0, lossPct));
  return OPUS_IE + ((95 - OPUS_IE) * ppl) / (ppl + OPUS_BPL);
}

export function rating(oneWayDelayMs: number, lossPct: number): number {
  return R_BASE - delayImpairment(oneWayDelayMs) - lossImpairment(lossPct);
}

/** G.107 Annex B: MOS (1…4.5) from R. */
export function mosFromRating(r: number): number {
  if (r <= 0) return 1;
  if (r >= 100) return 4.5;
  return 1 + 0.035 * r + r * (r - 60) * (100 - r) * 7e-6;
}

export interface MosInput {
  rttMs: number | null;
  jitterMs: number | null;
  lossPct: number | null;
  /** What the receiver's jitter buffer held on average in the interval, when known. */
  jitterBufferMs?: number | null;
}

/**
 * MOS for one interval, or null without a loss figure (no audio received). Mouth-to-ear delay:
 * half the RTT, plus the jitter buffer (or twice the jitter when the buffer is not reported),
 * plus the codec's frame and look-ahead.
 */
export function estimateMos({ rttMs, jitterMs, lossPct, jitterBufferMs }: MosInput): number | null {
  if (lossPct === null) return null;
  const buffer = jitterBufferMs ?? 2 * (jitterMs ?? 0);
  const delay = (rttMs ?? 0) / 2 + buffer + CODEC_DELAY_MS;
  return Math.round(mosFromRating(rating(delay, lossPct)) * 100) / 100;
}
