// Link previews, from a published message to the room's event (docs/architecture.md, link
// previews). Told of each user message after it was stored and broadcast, so a preview never
// delays a message. The first previewable URL is looked up in the cache; a fresh preview is
// recorded for the message and announced at once, a fresh failure is left alone, and anything
// else is fetched in a bounded queue: 4 fetches at once per node, one per user, a user's
// waiting links capped (the rest dropped), so one user pasting 1000 links holds one slot and
// a few queue places, never the server. The same URL asked again while it is fetched waits for
// that one fetch. Errors are logged at debug and announce nothing.
import type { LinkPreview } from '@common/api';
import type { Outbound } from '../../outbound';
import type { Logger } from '../../log';
import { FairQueue } from '../attachments/fair-queue';
import type { Clock } from '../types';
import { fetchImage, fetchPage } from './page-fetcher';
import type { CachedPreview, PreviewsRepository } from './previews-repository';
import { firstPreviewableUrl } from './url-finder';

export const QUEUE_LIMITS = { slots: 4, waitingPerUser: 5, waitingInAll: 1000 } as const;
/** A preview is fetched again after a day; a failed fetch is tried again after an hour. */
export const CACHE_MS = { ok: 24 * 3600_000, failed: 3600_000 } as const;

export interface PreviewedMessage {
  id: number;
  roomId: number;
  senderId: number | null;
  content: string;
  /** Who received the message when someone in the room blocked its sender; null: the room's topic. */
  hearing: readonly number[] | null;
}

export interface LinkPreviewsDeps {
  repo: PreviewsRepository;
  outbound: Outbound;
  clock: Clock;
  log: Logger;
  /** Announces a message's preview on its room's events topic (to whom the message went). */
  announce(message: PreviewedMessage, preview: LinkPreview): void;
}

export class LinkPreviews {
  private readonly queue = new FairQueue({ slots: QUEUE_LIMITS.slots, perKey: 1 });
  private readonly waitingOf = new Map<number, number>();
  private waiting = 0;
  private readonly fetching = new Map<string, Promise<CachedPreview>>();
  private readonly tasks = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly deps: LinkPreviewsDeps) {}

  /** A user message was published: its preview, if it has a link, follows as an event. */
  messagePublished(message: PreviewedMessage): void {
    if (message.senderId === null || this.stopped) return;
    const url = firstPreviewableUrl(message.content, (u) => this.deps.outbound.checkUrl(u));
    if (url === null) return;
    const task = this.preview(message, message.senderId, url).catch((err: unknown) => {
      this.deps.log.debug({ err, url, messageId: message.id }, 'no link preview');
    });
    this.tasks.add(task);
    void task.finally(() => this.tasks.delete(task));
  }

  /** Every preview under way has finished (tests). */
  async idle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.all([...this.tasks]);
  }

  /**
   * Shutdown: no new previews, the waiting ones skipped, and (once the caller closed the guard's
   * connections, failing the fetches under way) nothing left running against the database.
   */
  async stop(close: () => void): Promise<void> {
    this.stopped = true;
    close();
    await this.idle();
  }

  private async preview(message: PreviewedMessage, userId: number, url: string): Promise<void> {
    const { repo, clock } = this.deps;
    let cached = await repo.byUrl(url);
    if (cached && clock() - cached.fetchedAtMs < (cached.ok ? CACHE_MS.ok : CACHE_MS.failed)) {
      if (cached.ok) await this.show(message, cached);
      return;
    }
    cached = await this.fetchOnce(userId, url);
    if (cached?.ok) await this.show(message, cached);
  }

  private async show(message: PreviewedMessage, cached: CachedPreview): Promise<void> {
    await this.deps.repo.attach(message.id, cached.id);
    this.deps.announce(message, cached.preview);
  }

  /** One fetch per URL at a time on this node; null when the user's queue is full (dropped). */
  private fetchOnce(userId: number, url: string): Promise<CachedPreview | null> {
    const running = this.fetching.get(url);
    if (running) return running;
    const mine = this.waitingOf.get(userId) ?? 0;
    if (mine >= QUEUE_LIMITS.waitingPerUser || this.waiting >= QUEUE_LIMITS.waitingInAll) {
      this.deps.log.debug({ userId, url }, 'link preview dropped: queue full');
      return Promise.resolve(null);
    }
    this.waitingOf.set(userId, mine + 1);
    this.waiting += 1;
    const fetched = this.queue.run(userId, () => this.fetchAndStore(url)).finally(() => {
      this.fetching.delete(url);
      this.waiting -= 1;
      const left = (this.waitingOf.get(userId) ?? 1) - 1;
      if (left === 0) this.waitingOf.delete(userId);
      else this.waitingOf.set(userId, left);
    });
    this.fetching.set(url, fetched);
    return fetched;
  }

  /** Fetches the page (and its image) and caches what it gave, a failure included. */
  private async fetchAndStore(url: string): Promise<CachedPreview> {
    const { repo, outbound, clock, log } = this.deps;
    if (this.stopped) throw new Error('stopped');
    try {
      const page = await fetchPage(outbound, url);
      const image = page.head.image === null ? null : await fetchImage(outbound, page.head.image).catch((err: unknown) => {
        log.debug({ err, url: page.head.image }, 'no link preview image');
        return null;
      });
      const nothing = page.head.title === null && page.head.description === null && image === null;
      return await repo.store(url, nothing ? null : page.head, image, clock());
    } catch (err) {
      // A fetch cut by the shutdown is no failure of the URL's.
      if (this.stopped) throw err;
      log.debug({ err, url }, 'link preview fetch failed');
      return repo.store(url, null, null, clock());
    }
  }
}
