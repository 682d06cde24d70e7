// The media servers this node may put a call on: the instances of JANUS_URLS, or the embedded
// one (started at the first call that needs it, then kept until the server stops). Each
// instance has one session of ours; when its long poll fails the instance is down, every call
// on it is lost (onLost), and it is tried again in the background until it answers. A new call
// goes to the least loaded instance that is up, the load counted by the caller (the calls the
// shared store records on each).
import type { Logger } from '../log';
import { EmbeddedJanus, janusInstalled, type EmbeddedJanusOptions } from './embedded-janus';
import { janusAnswers, JanusSession, JanusUnreachableError } from './janus-client';

const RETRY_MS = 1000;

export interface JanusPoolOptions {
  /** JANUS_URLS; empty: the embedded instance, if `janus` runs here. */
  urls: string[];
  apiSecret: string | null;
  embedded: Omit<EmbeddedJanusOptions, 'log'>;
  log: Logger;
}

interface Instance {
  url: string;
  apiSecret: string | null;
  session: JanusSession | null;
  connecting: Promise<JanusSession> | null;
  down: boolean;
}

export class JanusPool {
  private instances: Instance[] = [];
  private embedded: Promise<EmbeddedJanus | null> | null = null;
  private embeddedJanus: EmbeddedJanus | null = null;
  private readonly lostHandlers: Array<(url: string) => void> = [];
  private readonly retries = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly options: JanusPoolOptions) {
    this.instances = options.urls.map((url) => ({ url: url.replace(/\/+$/, ''), apiSecret: options.apiSecret, session: null, connecting: null, down: false }));
  }

  /** Whether group calls can have a media server here at all (JANUS_URLS, or janus installed). */
  get configured(): boolean {
    return this.instances.length > 0 || this.embeddedPossible;
  }

  /** Asked once: whether the binary runs does not change while the server runs. */
  private installed: boolean | null = null;

  private get embeddedPossible(): boolean {
    if (this.options.urls.length > 0) return false;
    this.installed ??= janusInstalled(this.options.embedded.binary);
    return this.installed;
  }

  /** The embedded instance, once started (tests kill its process to play a crash). */
  get embeddedInstance(): EmbeddedJanus | null {
    return this.embeddedJanus;
  }

  /** Told the URL of an instance whose session died: its calls are lost. */
  onLost(handler: (url: string) => void): void {
    this.lostHandlers.push(handler);
  }

  /**
   * The instances that are up, least loaded first (load: calls on each URL); starts the
   * embedded one when it is the only way. Empty: no media server.
   */
  async candidates(load: (url: string) => number): Promise<string[]> {
    if (this.options.urls.length === 0) await this.startEmbedded();
    return this.instances.filter((i) => !i.down).sort((a, b) => load(a.url) - load(b.url)).map((i) => i.url);
  }

  /** This node's session on the instance; throws JanusUnreachableError when it is down. */
  async session(url: string): Promise<JanusSession> {
    if (this.options.urls.length === 0) await this.startEmbedded();
    const instance = this.instances.find((i) => i.url === url);
    if (!instance) throw new JanusUnreachableError(`no media server ${url} here`);
    if (instance.session?.alive) return instance.session;
    instance.connecting ??= JanusSession.create(instance.url, instance.apiSecret, (err) => this.lost(instance, err))
      .then((session) => {
        instance.session = session;
        instance.down = false;
        return session;
      })
      .catch((err: unknown) => {
        this.markDown(instance);
        throw err;
      })
      .finally(() => {
        instance.connecting = null;
      });
    return instance.connecting;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.retries) clearTimeout(timer);
    await Promise.all(this.instances.flatMap((i) => (i.session ? [i.session.destroy()] : [])));
    const embedded = await this.embedded?.catch(() => null);
    await embedded?.stop();
  }

  private startEmbedded(): Promise<EmbeddedJanus | null> {
    this.embedded ??= (async () => {
      if (!this.embeddedPossible) return null;
      const janus = await EmbeddedJanus.start({ ...this.options.embedded, log: this.options.log });
      if (this.stopped) {
        await janus.stop();
        return null;
      }
      this.embeddedJanus = janus;
      this.instances = [{ url: janus.url, apiSecret: janus.apiSecret, session: null, connecting: null, down: false }];
      return janus;
    })().catch((err: unknown) => {
      this.options.log.error({ err }, 'the embedded janus could not start');
      this.embedded = null;
      return null;
    });
    return this.embedded;
  }

  private lost(instance: Instance, err: Error): void {
    if (this.stopped) return;
    this.options.log.error({ url: instance.url, err: err.message }, 'media server lost');
    instance.session = null;
    this.markDown(instance);
    for (const handler of this.lostHandlers) handler(instance.url);
  }

  /** Down until it answers again: checked in the background. */
  private markDown(instance: Instance): void {
    if (instance.down || this.stopped) return;
    instance.down = true;
    const check = () => {
      const timer = setTimeout(() => {
        this.retries.delete(timer);
        if (this.stopped) return;
        void janusAnswers(instance.url, instance.apiSecret).then((up) => {
          if (up) instance.down = false;
          else check();
        });
      }, RETRY_MS);
      this.retries.add(timer);
    };
    check();
  }
}
