// Call quality in `harness call`'s report (issue 28): each side samples its RTCPeerConnection's
// getStats() once a second into a series, summarised per measure. The shape is the contract the
// HTML report and --pairs read (/work/briefs/harness-contract.md); keep it stable.

/** One second of one side's media, from the difference of two getStats() snapshots. */
export interface QualitySample {
  /** Seconds since this side's media started (its first sample). */
  t: number;
  rttMs: number | null;
  jitterMs: number | null;
  /** Inbound packets lost in this 1 s interval, as a percentage of those expected. */
  lossPct: number | null;
  /** Inbound media bitrate. */
  bitrateKbps: number | null;
  outBitrateKbps: number | null;
  /** Share of audio samples played out as concealment in this interval, %. */
  concealedPct: number | null;
  /** E-model estimate (ITU-T G.107, simplified for Opus), 1–4.5. */
  mos: number | null;
}

/** Distribution of one measure over a series; null values are skipped. */
export interface Stat {
  min: number;
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

export interface QualitySummary {
  samples: number;
  rttMs: Stat | null;
  jitterMs: Stat | null;
  lossPct: Stat | null;
  bitrateKbps: Stat | null;
  mos: Stat | null;
}

export interface SideQuality {
  series: QualitySample[];
  summary: QualitySummary;
  /** The audio packets this side received and lost over the whole call (cumulative counters). */
  audioPackets?: { received: number; lost: number; lossPct: number | null };
}

export interface CallQuality {
  caller: SideQuality;
  callee: SideQuality;
  /** Present when --network impaired the media: what was asked, and the loss actually measured. */
  network?: {
    asked: string;
    /**
     * Audio loss measured by the receivers of the impaired links, per link: with both sides
     * impaired each direction crosses two lossy links, and this is the loss of one of them.
     */
    measuredLossPct: number;
    side: 'caller' | 'callee' | 'both';
    /** --network-change-at, as given. */
    changes?: string[];
    /** Datagrams the relays passed on and dropped, both ways: what the impairment really did. */
    datagrams?: { forwarded: number; dropped: number };
  };
}
