// Janus' HTTP API, as its only client (docs/architecture.md "Group calls"): one session per
// instance, kept alive by its long poll, with handles attached to the VideoRoom plugin. A
// synchronous plugin request (create, destroy) answers at once; an asynchronous one (join,
// configure, start, update) is acked and answered later on the long poll by an event with the
// same transaction. Events nobody waits for (new publishers, renegotiation offers, Janus' own
// candidates) go to the handle's listener. Every request carries the instance's api_secret.
// When the long poll fails the session is lost (the instance died or restarted): every handle
// is gone with it, and the owner is told once.
import crypto from 'node:crypto';

/** A session description as Janus carries it. */
export interface Jsep { type: 'offer' | 'answer'; sdp: string }
/** An ICE candidate as Janus carries it; null: no more candidates (completed). */
export interface JanusCandidate { candidate: string; sdpMid?: string | null; sdpMLineIndex?: number | null }

/** Janus refused a request: its error code and reason (a plugin's error_code, or the core's). */
export class JanusError extends Error {
  constructor(message: string, readonly code: number | null = null) {
    super(message);
  }
}

/** The instance did not answer (down, restarting, or the session it knew is gone). */
export class JanusUnreachableError extends JanusError {}

interface JanusMessage {
  janus: string;
  transaction?: string;
  session_id?: number;
  sender?: number;
  data?: { id?: number };
  error?: { code: number; reason: string };
  plugindata?: { plugin: string; data: Record<string, unknown> };
  jsep?: Jsep;
  candidate?: JanusCandidate & { completed?: boolean };
  reason?: string;
}

/** A plugin's answer: its data, and the session description it carries if any. */
export interface PluginReply { data: Record<string, unknown>; jsep?: Jsep }

export interface HandleListener {
  /** An event of the plugin nobody waited for (with its jsep, if any). */
  event?(reply: PluginReply): void;
  /** A candidate of Janus for this handle's connection (null: gathering completed). */
  candidate?(candidate: JanusCandidate | null): void;
  /** The PeerConnection of this handle went down (Janus' hangup). */
  hangup?(reason: string): void;
}

const REQUEST_TIMEOUT_MS = 10_000;
const PLUGIN = 'janus.plugin.videoroom';

const transactionId = () => crypto.randomBytes(9).toString('base64url');

function pluginError(data: Record<string, unknown>): JanusError | null {
  if (typeof data.error !== 'string' && typeof data.error_code !== 'number') return null;
  return new JanusError(typeof data.error === 'string' ? data.error : 'plugin error', typeof data.error_code === 'number' ? data.error_code : null);
}

async function post(url: string, body: Record<string, unknown>): Promise<JanusMessage> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (err) {
    throw new JanusUnreachableError(`janus at ${url} unreachable: ${(err as Error).message}`);
  }
  if (!res.ok) throw new JanusUnreachableError(`janus at ${url} answered HTTP ${res.status}`);
  const reply = (await res.json()) as JanusMessage;
  if (reply.janus === 'error') {
    const code = reply.error?.code ?? null;
    // 458: no such session. The instance restarted or reaped it: as good as unreachable.
    if (code === 458) throw new JanusUnreachableError(`janus at ${url}: ${reply.error?.reason ?? 'no such session'}`);
    throw new JanusError(reply.error?.reason ?? 'janus error', code);
  }
  return reply;
}

/** Whether the instance answers its info request (the server is up and accepts our secret). */
export async function janusAnswers(url: string, apiSecret: string | null): Promise<boolean> {
  try {
    const reply = await post(url, { janus: 'info', transaction: transactionId(), ...(apiSecret ? { apisecret: apiSecret } : {}) });
    return reply.janus === 'server_info';
  } catch {
    return false;
  }
}

export class JanusSession {
  private readonly handles = new Map<number, JanusHandle>();
  private readonly waiting = new Map<string, { resolve(reply: PluginReply): void; reject(err: Error): void; timer: NodeJS.Timeout }>();
  private readonly polling = new AbortController();
  private closed = false;

  private constructor(
    readonly url: string,
    private readonly apiSecret: string | null,
    readonly id: number,
    private readonly lost: (err: Error) => void,
  ) {}

  /** A new session on the instance at `url` (…/janus); `lost` is told once if it dies. */
  static async create(url: string, apiSecret: string | null, lost: (err: Error) => void): Promise<JanusSession> {
    const reply = await post(url, { janus: 'create', transaction: transactionId(), ...(apiSecret ? { apisecret: apiSecret } : {}) });
    const id = reply.data?.id;
    if (typeof id !== 'number') throw new JanusError('janus create answered no session id');
    const session = new JanusSession(url, apiSecret, id, lost);
    void session.poll();
    return session;
  }

  get alive(): boolean {
    return !this.closed;
  }

  /** A new handle on the VideoRoom plugin. */
  async attach(listener: HandleListener = {}): Promise<JanusHandle> {
    const reply = await this.send(`${this.url}/${this.id}`, { janus: 'attach', plugin: PLUGIN });
    const id = reply.data?.id;
    if (typeof id !== 'number') throw new JanusError('janus attach answered no handle id');
    const handle = new JanusHandle(this, id, listener);
    this.handles.set(id, handle);
    return handle;
  }

  /** Ends the session (its handles with it); the instance being gone already is fine. */
  async destroy(): Promise<void> {
    if (this.closed) return;
    this.close();
    await this.send(`${this.url}/${this.id}`, { janus: 'destroy' }).catch(() => undefined);
  }

  /** @internal A request on the session; asynchronous plugin requests wait for their event. */
  async send(url: string, body: Record<string, unknown>, awaitEvent = false): Promise<JanusMessage & { reply?: PluginReply }> {
    if (this.closed && body.janus !== 'destroy') throw new JanusUnreachableError('janus session lost');
    const transaction = transactionId();
    const full = { ...body, transaction, ...(this.apiSecret ? { apisecret: this.apiSecret } : {}) };
    if (!awaitEvent) return post(url, full);
    const event = new Promise<PluginReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(transaction);
        reject(new JanusError('janus did not answer in time'));
      }, REQUEST_TIMEOUT_MS);
      this.waiting.set(transaction, { resolve, reject, timer });
    });
    try {
      const ack = await post(url, full);
      // A plugin may answer an asynchronous request at once (an error, or a synchronous one).
      if (ack.janus === 'success' && ack.plugindata) this.settle(transaction, { data: ack.plugindata.data, jsep: ack.jsep });
    } catch (err) {
      this.fail(transaction, err as Error);
    }
    return { janus: 'event', reply: await event };
  }

  /** @internal */
  forget(handleId: number): void {
    this.handles.delete(handleId);
  }

  private settle(transaction: string, reply: PluginReply): void {
    const waiter = this.waiting.get(transaction);
    if (!waiter) return;
    this.waiting.delete(transaction);
    clearTimeout(waiter.timer);
    const error = pluginError(reply.data);
    if (error) waiter.reject(error);
    else waiter.resolve(reply);
  }

  private fail(transaction: string, err: Error): void {
    const waiter = this.waiting.get(transaction);
    if (!waiter) return;
    this.waiting.delete(transaction);
    clearTimeout(waiter.timer);
    waiter.reject(err);
  }

  private close(): void {
    this.closed = true;
    this.polling.abort();
    for (const [transaction] of this.waiting) this.fail(transaction, new JanusUnreachableError('janus session lost'));
    this.handles.clear();
  }

  /** The long poll: it keeps the session alive and brings every event of its handles. */
  private async poll(): Promise<void> {
    const secret = this.apiSecret ? `&apisecret=${encodeURIComponent(this.apiSecret)}` : '';
    while (!this.closed) {
      let messages: JanusMessage[];
      try {
        const res = await fetch(`${this.url}/${this.id}?maxev=20${secret}&rid=${Date.now()}`, { signal: this.polling.signal });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const body = (await res.json()) as JanusMessage | JanusMessage[];
        messages = Array.isArray(body) ? body : [body];
        const gone = messages.find((m) => m.janus === 'error');
        if (gone) throw new Error(gone.error?.reason ?? 'janus error');
      } catch (err) {
        if (this.closed) return;
        this.close();
        this.lost(err as Error);
        return;
      }
      for (const message of messages) this.dispatch(message);
    }
  }

  private dispatch(message: JanusMessage): void {
    if (message.janus === 'keepalive') return;
    if (message.janus === 'event' && message.transaction && this.waiting.has(message.transaction) && message.plugindata) {
      this.settle(message.transaction, { data: message.plugindata.data, jsep: message.jsep });
      return;
    }
    const handle = message.sender === undefined ? undefined : this.handles.get(message.sender);
    if (!handle) return;
    handle.receive(message);
  }
}

export class JanusHandle {
  constructor(
    private readonly session: JanusSession,
    readonly id: number,
    private readonly listener: HandleListener,
  ) {}

  private get url(): string {
    return `${this.session.url}/${this.session.id}/${this.id}`;
  }

  /** A synchronous VideoRoom request (create, destroy, exists, listparticipants): its answer's data. */
  async request(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const reply = await this.session.send(this.url, { janus: 'message', body });
    const data = reply.plugindata?.data ?? {};
    const error = pluginError(data);
    if (error) throw error;
    return data;
  }

  /** An asynchronous VideoRoom request (join, configure, start, update), with a jsep if any: its event. */
  async message(body: Record<string, unknown>, jsep?: Jsep): Promise<PluginReply> {
    const reply = await this.session.send(this.url, { janus: 'message', body, ...(jsep ? { jsep } : {}) }, true);
    return reply.reply ?? { data: {} };
  }

  /** One of the browser's candidates for this handle's connection; null: it has no more. */
  async trickle(candidate: JanusCandidate | null): Promise<void> {
    await this.session.send(this.url, { janus: 'trickle', candidate: candidate ?? { completed: true } });
  }

  /** Leaves the plugin (the participant's connection with it); the session being gone is fine. */
  async detach(): Promise<void> {
    this.session.forget(this.id);
    if (!this.session.alive) return;
    await this.session.send(this.url, { janus: 'detach' }).catch(() => undefined);
  }

  /** @internal */
  receive(message: JanusMessage): void {
    if (message.janus === 'trickle') {
      const c = message.candidate;
      this.listener.candidate?.(!c || c.completed ? null : { candidate: c.candidate, sdpMid: c.sdpMid ?? null, sdpMLineIndex: c.sdpMLineIndex ?? null });
    } else if (message.janus === 'event' && message.plugindata) {
      this.listener.event?.({ data: message.plugindata.data, jsep: message.jsep });
    } else if (message.janus === 'hangup') {
      this.listener.hangup?.(message.reason ?? 'hangup');
    }
  }
}
