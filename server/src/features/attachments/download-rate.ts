// How fast one user may start downloads (files and thumbnails) on a node: a token bucket per
// user, refused before any database work, so one user's flood of tiny ranged requests cannot
// slow anyone else's requests (docs/architecture.md §3a). A bucket refills at `perSecond`
// tokens a second up to `burst` (a room full of photos opened at once fits in it).
import type { Clock } from '../types';

interface Bucket { tokens: number; atMs: number }

export class DownloadRate {
  private readonly buckets = new Map<number, Bucket>();

  constructor(
    private readonly options: { perSecond: number; burst: number },
    private readonly clock: Clock,
  ) {}

  /** Takes a token of the user's bucket: 0 when there was one, else the seconds until there is. */
  take(userId: number): number {
    const now = this.clock();
    const { perSecond, burst } = this.options;
    const bucket = this.buckets.get(userId) ?? { tokens: burst, atMs: now };
    bucket.tokens = Math.min(burst, bucket.tokens + (Math.max(0, now - bucket.atMs) / 1000) * perSecond);
    bucket.atMs = now;
    if (bucket.tokens < 1) {
      this.buckets.set(userId, bucket);
      return (1 - bucket.tokens) / perSecond;
    }
    bucket.tokens -= 1;
    this.buckets.set(userId, bucket);
    if (this.buckets.size > 10_000) this.forgetFull(now);
    return 0;
  }

  /** Buckets full again are as good as none: dropped, so the map holds only recent downloaders. */
  private forgetFull(now: number): void {
    const { perSecond, burst } = this.options;
    for (const [userId, b] of this.buckets) {
      if (b.tokens + ((now - b.atMs) / 1000) * perSecond >= burst) this.buckets.delete(userId);
    }
  }
}
