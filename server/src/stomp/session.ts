// One STOMP connection: the protocol state machine from CONNECT to DISCONNECT. It knows the
// socket only through StompSocket (which a uWS WebSocket satisfies as it is) and the broker
// only through SessionHost, so it is tested without a network.
import { PayloadError } from '@common/payloads';
import { StompHandlerError, StompUnavailableError, type StompPrincipal } from './api';
import { CLIENT_COMMANDS, escapeHeader, frame, serialize, type Frame, type StompVersion } from './frame';
import { FRAMES_PER_TURN, FrameBudget, type BudgetLimits } from './budget';
import { elapsedMs, isBeatDue, isSilent, negotiateHeartbeats } from './heartbeat';
import { intern } from './intern';
import { DEFAULT_LIMITS, endOfFrames, StompParseError, StompParser } from './parser';
import type { HandlerRoute, StompRouter } from './router';
import type { TakesTurns, Turns } from './turns';

/** The part of a uWS WebSocket a session uses. Never touched after the socket closed. */
export interface StompSocket {
  send(message: Uint8Array | string, isBinary?: boolean): number;
  subscribe(topic: string): boolean;
  unsubscribe(topic: string): boolean;
  end(code?: number, shortMessage?: string): void;
  /** Cuts the connection at once (no close handshake). */
  close(): void;
  getBufferedAmount(): number;
  /**
   * Runs `fn` with the socket's sends gathered into one write (uWS corks its callbacks itself,
   * not the turns this session takes outside them). Optional: test sockets have none.
   */
  cork?(fn: () => void): unknown;
}

const ACK_MODES = new Set(['auto', 'client', 'client-individual']);

/** What a session needs from the broker. */
export interface SessionHost {
  readonly router: StompRouter;
  readonly serverName: string;
  /** Smallest intervals this server offers and asks for (the CONNECTED heart-beat header). */
  readonly heartbeat: { send: number; receive: number };
  /** What one connection may send per second (budget.ts). */
  readonly budget: BudgetLimits;
  /** A socket that has not completed CONNECT this long after opening is closed. */
  readonly connectTimeoutMs: number;
  /** Frames in and out, counted for the metrics. */
  readonly counters: { framesIn: number; framesOut: number };
  /** The node's turns (turns.ts): a session with more input than one turn waits there for the next. */
  readonly turns: Turns;
  /** Milliseconds, wrapped to int32 so timestamps stay small integers; compared wrap-aware. */
  now(): number;
  connected(session: StompSession): void;
  subscribed(session: StompSession, id: string, destination: string): void;
  /** Called once the subscription is gone from session.subscriptions. */
  unsubscribed(session: StompSession, id: string, destination: string): void;
  /** Changes whenever the server ends some of the user's subscriptions (Publisher.unsubscribeUser). */
  revocationEpoch(userId: number): number;
  handlerFailed(session: StompSession, destination: string, err: unknown): void;
}

export const SUPPORTED_VERSIONS: StompVersion[] = ['1.2', '1.1', '1.0'];

export const CLOSE = { normal: 1000, goingAway: 1001, protocol: 1002, policy: 1008, tooBig: 1009, internal: 1011, tryAgainLater: 1013 } as const;

/** The shortest frame: a one-letter command, the blank line and the NUL ("X\n\n\0"). */
const MIN_FRAME_BYTES = 4;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Per-connection limits, so one client cannot grow the server's memory without bound. With the
 * parser's limits (a frame of at most 64 KiB) they bound what a session can hold: see
 * docs/architecture.md, "Limits per session".
 */
export const SESSION_LIMITS = {
  /** Frames received while an earlier one is still being handled, and their bytes. */
  pendingFrames: 1000,
  pendingBytes: 1024 * 1024,
  /**
   * Bytes received and not handled yet, parsed or not: one whole WebSocket message (1 MiB) beside
   * a frame in progress. Input is parsed a turn at a time (turns.ts), so this is the backlog.
   */
  inputBytes: 1024 * 1024 + DEFAULT_LIMITS.maxFrameBytes,
  /** SENDs held in open transactions, all together, and their bytes. */
  transactionFrames: 1000,
  transactionBytes: 1024 * 1024,
  /** Characters of a subscription id. */
  subscriptionId: 128,
  /** Transactions open at once. */
  openTransactions: 16,
  /** Characters of a transaction name. */
  transactionName: 128,
  subscriptions: 256,
};

/** Thrown inside frame handling to answer ERROR; anything else is a server fault. */
class Refusal extends Error {
  constructor(message: string, readonly code: number = CLOSE.protocol, readonly extra: Record<string, string> = {}) {
    super(message);
  }
}

type Work = Frame | StompParseError;
export type SessionState = 'new' | 'connected' | 'ending' | 'closed';

/** A SEND held in a transaction until COMMIT, with the handler its destination was routed to. */
interface HeldSend {
  frame: Frame;
  route: HandlerRoute;
}

export class StompSession implements TakesTurns {
  private liveSocket: StompSocket | null = null;
  private currentState: SessionState = 'new';
  private negotiatedVersion: StompVersion = '1.2';
  /** Negotiated heart-beat periods in ms; 0 means none. */
  private sendEvery = 0;
  private expectEvery = 0;
  private lastReceived = 0;
  private lastSent = 0;
  private openedAt = 0;
  /** Made at the first message: an idle session holds none. */
  private budget: FrameBudget | null = null;
  /** Bytes of the frames in `queue`, and of the SENDs held in transactions. */
  private queuedBytes = 0;
  private heldBytes = 0;
  /**
   * Subscriptions as id, destination pairs in one flat array ([id0, destination0, id1, …]), null
   * when there are none: no Map and no object per subscription (memory per idle session). The ack
   * mode is checked but not kept: every MESSAGE is delivered once and carries an ack header anyway.
   */
  private subscriptions: string[] | null = null;
  private parser: StompParser | null = null;
  private transactions: Map<string, HeldSend[]> | null = null;
  private queue: Work[] | null = null;
  private busy = false;
  /** The message being received, read in place by a turn taken at once (else copied into the parser). */
  private incoming: Uint8Array | null = null;
  /**
   * A message held more frames than the budget allowed when it arrived: only those were kept, and
   * once they are parsed the session fails as if it had parsed the next one (the rest was dropped).
   */
  private overBudget = false;

  constructor(
    private readonly host: SessionHost,
    readonly principal: StompPrincipal,
    readonly remoteAddress: string,
    /** The session cookie's token, kept to re-check the login session while connected. */
    readonly token: string,
  ) {}

  /** The socket while it is open; null once it closed. */
  get socket(): StompSocket | null {
    return this.liveSocket;
  }

  get state(): SessionState {
    return this.currentState;
  }

  get version(): StompVersion {
    return this.negotiatedVersion;
  }

  opened(socket: StompSocket): void {
    this.liveSocket = socket;
    this.openedAt = this.lastReceived = this.lastSent = this.host.now();
  }

  /** Unsent bytes waiting on the socket (the slow-consumer check). */
  bufferedBytes(): number {
    return this.liveSocket?.getBufferedAmount() ?? 0;
  }

  /** Closes a socket that cannot keep up (slow-consumer.ts): no ERROR frame, it would not get through. */
  endAsSlowConsumer(): void {
    if (!this.liveSocket || this.currentState === 'closed') return;
    this.currentState = 'ending';
    this.liveSocket.end(CLOSE.policy, 'slow consumer');
  }

  /**
   * The check of one tick: a socket that has not completed CONNECT in time is closed
   * ('no-connect', a trickle of bytes does not count); then heart-beats (heartbeat.ts): a beat
   * when one is due, and a client silent too long is closed ('silent').
   */
  keepAlive(now: number): 'ok' | 'silent' | 'no-connect' {
    if (this.currentState === 'new' && elapsedMs(now, this.openedAt) > this.host.connectTimeoutMs) {
      this.fail(`no CONNECT within ${Math.round(this.host.connectTimeoutMs / 1000)} s of opening`, { code: CLOSE.policy });
      return 'no-connect';
    }
    if (this.currentState !== 'connected') return 'ok';
    if (isSilent(now, this.lastReceived, this.expectEvery)) {
      this.fail('no heart-beat from the client', { code: CLOSE.policy });
      return 'silent';
    }
    if (isBeatDue(now, this.lastSent, this.sendEvery)) this.sendRaw('\n');
    return 'ok';
  }

  /**
   * One WebSocket message: any bytes, any number of frames or parts of frames. It is parsed a
   * turn at a time (turns.ts): the first turn at once when no other socket waits, the rest in
   * later rounds, so a message packed with frames costs its neighbours one turn per round.
   */
  receive(message: Uint8Array): void {
    if (this.state === 'ending' || this.state === 'closed' || this.overBudget) return;
    let bytes = message;
    const now = (this.lastReceived = this.host.now());
    const budget = (this.budget ??= new FrameBudget(this.host.budget, now));
    if (!budget.spend(0, bytes.length, now)) {
      this.fail(`more than ${this.host.budget.bytesPerSecond} bytes a second sent`, { code: CLOSE.policy });
      return;
    }
    const parser = (this.parser ??= new StompParser());
    parser.version = this.version;
    if (parser.buffered + this.queuedBytes + bytes.length > SESSION_LIMITS.inputBytes) {
      this.failPiledUp();
      return;
    }
    // A message with more frames than the budget holds: only those are kept (and so copied) and
    // the rest dropped. Counted from a frame boundary, so only when nothing is buffered; a
    // message too short to hold more frames (4 bytes at least each) is not looked at.
    if (parser.buffered === 0) {
      const left = budget.framesLeft(now);
      const cut = bytes.length >= MIN_FRAME_BYTES * (left + 1) ? endOfFrames(bytes, left) : -1;
      if (cut === 0) {
        this.failOverBudget();
        return;
      }
      if (cut > 0) {
        bytes = bytes.subarray(0, cut);
        this.overBudget = true;
      }
    }
    this.incoming = bytes;
    this.host.turns.turnNowOrQueue(this);
    // Queued behind other sockets: the bytes are copied (uWS reuses the message's memory).
    const left = this.incoming;
    this.incoming = null;
    if (left) this.parser?.push(left, 0);
  }

  /**
   * One turn (turns.ts): at most FRAMES_PER_TURN frames parsed, never more than the frame budget
   * allows (one over it ends the session, and the rest of its input is dropped unparsed), then
   * at most FRAMES_PER_TURN handled. Input is parsed while a handler runs too, so a client
   * cannot pile up frames unseen. True while more is waiting.
   */
  takeTurn(): boolean {
    const chunk = this.incoming;
    this.incoming = null;
    if (this.over()) return false;
    const socket = this.liveSocket;
    // A turn's receipts go out in one write, not one system call each (half the CPU of a flood).
    if (!socket?.cork) return this.turn(chunk);
    let more = false;
    socket.cork(() => {
      more = this.turn(chunk);
    });
    return more;
  }

  private turn(chunk: Uint8Array | null): boolean {
    try {
      let moreInput = false;
      const parser = this.parser;
      // The frames the budget allowed are parsed: the next would overdraw it.
      if (this.overBudget && !chunk && !parser?.midFrame) {
        this.failOverBudget();
        return false;
      }
      if (parser && (chunk || parser.midFrame)) {
        const now = this.host.now();
        const budget = this.budget!;
        // Only the budget's frames, so all of them are handled; with none left, the one that overdraws it.
        const left = budget.framesLeft(now);
        const max = left > 0 ? Math.min(FRAMES_PER_TURN, left) : 1;
        const { frames, error } = chunk ? parser.push(chunk, max) : parser.pull(max);
        // Between frames the parser holds nothing, so an idle session keeps none (memory per session).
        if (!parser.midFrame && !error) this.parser = null;
        this.host.counters.framesIn += frames.length;
        if (frames.length > 0 && !budget.spend(frames.length, 0, now)) {
          this.failOverBudget();
          return false;
        }
        moreInput = (this.parser !== null && frames.length === max) || this.overBudget;
        const works: Work[] = frames;
        if (error) works.push(error);
        if (works.length > 0 && !this.enqueueAll(works)) return false;
      }
      if (!this.busy) this.run();
      if (this.over()) return false;
      return moreInput || (!this.busy && this.queue !== null);
    } catch (err) {
      this.host.handlerFailed(this, '', err);
      this.fail('internal server error', { code: CLOSE.internal });
      return false;
    }
  }

  /** Ending or closed: nothing more is parsed or handled. */
  private over(): boolean {
    return this.currentState === 'ending' || this.currentState === 'closed';
  }

  /** The socket is gone: pending work and open transactions are dropped. */
  closed(): void {
    this.currentState = 'closed';
    this.liveSocket = null;
    this.queue = null;
    this.queuedBytes = 0;
    this.transactions = null;
    this.heldBytes = 0;
    this.parser = null;
    this.incoming = null;
  }

  /** Sends ERROR and ends the socket gracefully; the session accepts nothing more. */
  fail(message: string, options: { code?: number; receiptId?: string; body?: string; headers?: Record<string, string> } = {}): void {
    if (this.state === 'ending' || this.state === 'closed') return;
    const headers: Record<string, string> = { message, ...options.headers };
    if (options.receiptId !== undefined) headers['receipt-id'] = options.receiptId;
    headers['content-type'] = 'text/plain;charset=utf-8';
    const body = Buffer.from(options.body ?? message, 'utf8');
    headers['content-length'] = String(body.length);
    this.sendFrame(frame('ERROR', headers, body));
    this.currentState = 'ending';
    this.queue = null;
    this.queuedBytes = 0;
    this.transactions = null;
    this.heldBytes = 0;
    // The rest of its input is dropped unparsed.
    this.parser = null;
    this.incoming = null;
    // A close reason is at most 123 bytes of UTF-8: keep a short ASCII form of the message.
    this.liveSocket?.end(options.code ?? CLOSE.protocol, message.replace(/[^\x20-\x7e]/g, '?').slice(0, 120));
  }

  sendFrame(f: Frame): void {
    this.sendRaw(serialize(f, this.version));
  }

  sendRaw(bytes: Uint8Array | string): void {
    if (!this.liveSocket || this.currentState === 'closed') return;
    this.lastSent = this.host.now();
    this.host.counters.framesOut++;
    this.liveSocket.send(bytes, false);
  }

  /** Queues parsed frames behind those waiting; false when that piles up too many (the session failed). */
  private enqueueAll(works: Work[]): boolean {
    const queue = (this.queue ??= []);
    let bytes = 0;
    for (const work of works) bytes += sizeOf(work);
    if (queue.length + works.length > SESSION_LIMITS.pendingFrames || this.queuedBytes + bytes > SESSION_LIMITS.pendingBytes) {
      this.failPiledUp();
      return false;
    }
    this.queuedBytes += bytes;
    for (const work of works) queue.push(work);
    return true;
  }

  private failOverBudget(): void {
    this.fail(`more than ${this.host.budget.framesPerSecond} frames a second sent`, { code: CLOSE.policy });
  }

  private failPiledUp(): void {
    this.fail(`more than ${SESSION_LIMITS.pendingFrames} frames or ${SESSION_LIMITS.pendingBytes} bytes awaiting processing`, { code: CLOSE.policy });
  }

  /** The next queued frame; the queue is dropped once empty (memory per idle session). */
  private next(): Work | undefined {
    const work = this.queue?.shift();
    if (work === undefined) this.queue = null;
    else this.queuedBytes -= sizeOf(work);
    return work;
  }

  /**
   * Frames are handled one after another, at most FRAMES_PER_TURN in a turn; an async one holds
   * the rest until it settles, and the session then takes its next turn (at once if nobody waits).
   */
  private run(): void {
    for (let handled = 0; handled < FRAMES_PER_TURN; handled++) {
      if (this.state === 'ending' || this.state === 'closed') return;
      const work = this.next();
      if (work === undefined) return;
      let pending: Promise<void> | void;
      try {
        pending = this.handle(work);
      } catch (err) {
        this.answerFailure(work, err);
        return;
      }
      if (pending) {
        this.busy = true;
        pending
          .then(
            () => {
              this.busy = false;
              if (!this.over()) this.host.turns.turnNowOrQueue(this);
            },
            (err: unknown) => {
              this.busy = false;
              this.answerFailure(work, err);
            },
          )
          // Nothing may reject unobserved (Node ends the process on an unhandled rejection).
          .catch((err: unknown) => this.host.handlerFailed(this, '', err));
        return;
      }
    }
  }

  private answerFailure(work: Work, err: unknown): void {
    const receiptId = work instanceof StompParseError ? undefined : work.headers.get('receipt');
    if (err instanceof Refusal) {
      this.fail(err.message, { code: err.code, receiptId, headers: err.extra });
    } else {
      this.host.handlerFailed(this, work instanceof StompParseError ? '' : work.headers.get('destination') ?? '', err);
      this.fail('internal server error', { code: CLOSE.internal, receiptId });
    }
  }

  private handle(work: Work): Promise<void> | void {
    if (work instanceof StompParseError) {
      throw new Refusal(work.message, work.limit ? CLOSE.tooBig : CLOSE.protocol);
    }
    const f = work;
    if (!CLIENT_COMMANDS.has(f.command)) throw new Refusal(`unknown command ${JSON.stringify(f.command.slice(0, 40))}`);
    if (f.command === 'CONNECT' || f.command === 'STOMP') return this.connect(f);
    if (this.state !== 'connected') throw new Refusal(`${f.command} before CONNECT`);
    switch (f.command) {
      case 'SEND':
        return this.send(f);
      case 'SUBSCRIBE':
        return this.subscribe(f);
      case 'UNSUBSCRIBE':
        return this.unsubscribe(f);
      case 'ACK':
      case 'NACK':
        return this.ack(f);
      case 'BEGIN':
        return this.begin(f);
      case 'COMMIT':
        return this.commit(f);
      case 'ABORT':
        return this.abort(f);
      case 'DISCONNECT':
        return this.disconnect(f);
    }
  }

  private receipt(f: Frame): void {
    const id = f.headers.get('receipt');
    // Written as text at once: a flood's budget of ACKs asks for thousands of these (no Map, no Buffer each).
    if (id !== undefined && this.state === 'connected') this.sendRaw(`RECEIPT\nreceipt-id:${this.version === '1.0' ? id : escapeHeader(id)}\n\n\0`);
  }

  private connect(f: Frame): void {
    if (this.state !== 'new') throw new Refusal('already connected');
    const offered = (f.headers.get('accept-version') ?? '1.0').split(',').map((v) => v.trim());
    const version = SUPPORTED_VERSIONS.find((v) => offered.includes(v));
    if (!version) {
      throw new Refusal(`Supported protocol versions are ${SUPPORTED_VERSIONS.join(' ')}`, CLOSE.protocol, {
        version: SUPPORTED_VERSIONS.join(','),
      });
    }
    const agreed = negotiateHeartbeats(f.headers.get('heart-beat'), this.host.heartbeat);
    if (!agreed) throw new Refusal('heart-beat must be two comma-separated integers');
    const { send: sx, receive: sy } = this.host.heartbeat;
    this.sendEvery = agreed.sendEvery;
    this.expectEvery = agreed.expectEvery;
    this.negotiatedVersion = version;
    if (this.parser) this.parser.version = version;
    this.currentState = 'connected';
    this.sendFrame(
      frame('CONNECTED', {
        version,
        'heart-beat': `${sx},${sy}`,
        server: this.host.serverName,
        session: this.principal.connectionId,
      }),
    );
    this.host.connected(this);
  }

  private required(f: Frame, name: string): string {
    const value = f.headers.get(name);
    if (value === undefined || value === '') throw new Refusal(`${f.command} without a ${name} header`);
    return value;
  }

  private transaction(f: Frame): HeldSend[] | null {
    const tx = f.headers.get('transaction');
    if (tx === undefined) return null;
    const held = this.transactions?.get(tx);
    if (!held) throw new Refusal(`no transaction ${JSON.stringify(tx)} is open`);
    return held;
  }

  private send(f: Frame): Promise<void> | void {
    const destination = this.required(f, 'destination');
    // Routed once, here: refused at once, even inside a transaction, rather than at COMMIT.
    const route = this.host.router.routeSend(destination);
    if (route.kind === 'refused') throw new Refusal(route.message, CLOSE.policy);
    const tx = this.transaction(f);
    if (tx) {
      let held = 0;
      for (const sends of this.transactions!.values()) held += sends.length;
      if (held >= SESSION_LIMITS.transactionFrames || this.heldBytes + sizeOf(f) > SESSION_LIMITS.transactionBytes) {
        throw new Refusal(`more than ${SESSION_LIMITS.transactionFrames} frames or ${SESSION_LIMITS.transactionBytes} bytes held in transactions`, CLOSE.policy);
      }
      this.heldBytes += sizeOf(f);
      tx.push({ frame: f, route });
      this.receipt(f);
      return;
    }
    const applied = this.apply(f, route);
    if (applied) return applied.then(() => this.receipt(f));
    this.receipt(f);
  }

  /** Hands one SEND's body to the /app handler it was routed to. */
  private apply(f: Frame, route: HandlerRoute): Promise<void> | void {
    let body: string;
    try {
      body = utf8.decode(f.body);
    } catch {
      throw new Refusal('the body is not valid UTF-8');
    }
    const principal = this.principal;
    let result: Promise<void> | void;
    try {
      result = route.handler(principal, body);
    } catch (err) {
      throw toRefusal(err);
    }
    if (result) {
      return result.then(undefined, (err: unknown) => {
        throw toRefusal(err);
      });
    }
  }

  /** Index of the subscription's id in `subscriptions`, or -1. */
  private indexOfSubscription(id: string): number {
    const subs = this.subscriptions;
    if (subs) for (let i = 0; i < subs.length; i += 2) if (subs[i] === id) return i;
    return -1;
  }

  get subscriptionCount(): number {
    return (this.subscriptions?.length ?? 0) / 2;
  }

  /** Calls `fn` with the id of each of this session's subscriptions to the destination. */
  forEachSubscriptionTo(destination: string, fn: (id: string) => void): void {
    const subs = this.subscriptions;
    if (subs) for (let i = 1; i < subs.length; i += 2) if (subs[i] === destination) fn(subs[i - 1]);
  }

  /** Hands over every subscription as flat id, destination pairs, and forgets them (the socket closed). */
  takeSubscriptions(): string[] {
    const subs = this.subscriptions ?? [];
    this.subscriptions = null;
    return subs;
  }

  /** Each destination this session subscribes to, once. */
  subscribedDestinations(): string[] {
    const subs = this.subscriptions;
    const out = new Set<string>();
    if (subs) for (let i = 1; i < subs.length; i += 2) out.add(subs[i]);
    return [...out];
  }

  subscribesTo(destination: string): boolean {
    const subs = this.subscriptions;
    if (subs) for (let i = 1; i < subs.length; i += 2) if (subs[i] === destination) return true;
    return false;
  }

  private subscribe(f: Frame): Promise<void> | void {
    const destination = this.required(f, 'destination');
    const id = this.version === '1.0' ? f.headers.get('id') ?? destination : this.required(f, 'id');
    if (!ACK_MODES.has(f.headers.get('ack') ?? 'auto')) throw new Refusal(`ack must be auto, client or client-individual`);
    if (id.length > SESSION_LIMITS.subscriptionId) throw new Refusal(`subscription ids are at most ${SESSION_LIMITS.subscriptionId} characters`, CLOSE.policy);
    if (this.indexOfSubscription(id) >= 0) throw new Refusal(`subscription id ${JSON.stringify(id)} is already in use`);
    if (this.subscriptionCount >= SESSION_LIMITS.subscriptions) {
      throw new Refusal(`more than ${SESSION_LIMITS.subscriptions} subscriptions`, CLOSE.policy);
    }
    const decide = (allowed: boolean) => {
      if (!allowed) throw new Refusal(`not allowed to subscribe to ${destination}`, CLOSE.policy);
      if (this.state !== 'connected') return;
      if (this.indexOfSubscription(id) >= 0) throw new Refusal(`subscription id ${JSON.stringify(id)} is already in use`);
      this.subscriptions = withPair(this.subscriptions, intern(id), destination);
      this.host.subscribed(this, id, destination);
      this.receipt(f);
    };
    const { userId } = this.principal;
    const authorize = () => this.host.router.authorize(this.principal, destination);
    // A verdict that arrives asynchronously may be stale: when the server ended this user's
    // subscriptions meanwhile (they left the room after the check read "member"), ending them
    // found nothing to end yet, so a yes read before that is asked again, not trusted.
    const settle = (epoch: number, verdict: Promise<boolean>): Promise<void> =>
      verdict.then((allowed) => {
        const current = this.host.revocationEpoch(userId);
        if (allowed && current !== epoch) return settle(current, Promise.resolve(authorize()));
        decide(allowed);
      });
    const epoch = this.host.revocationEpoch(userId);
    const verdict = authorize();
    if (typeof verdict === 'boolean') return decide(verdict);
    return settle(epoch, verdict);
  }

  private unsubscribe(f: Frame): void {
    const id = this.version === '1.0' ? f.headers.get('id') ?? this.required(f, 'destination') : this.required(f, 'id');
    // The server may already have ended it (unsubscribeUser), so an unknown id is no error.
    const at = this.indexOfSubscription(id);
    if (at >= 0) this.dropAt(at);
    this.receipt(f);
  }

  /** Ends every subscription of this session to the destination at once. */
  dropDestination(destination: string): void {
    for (let at = (this.subscriptions?.length ?? 0) - 2; at >= 0; at -= 2) {
      if (this.subscriptions![at + 1] === destination) this.dropAt(at);
    }
  }

  private dropAt(at: number): void {
    const subs = this.subscriptions!;
    const [id, destination] = subs.splice(at, 2);
    if (subs.length === 0) this.subscriptions = null;
    this.host.unsubscribed(this, id, destination);
  }

  private ack(f: Frame): void {
    // Messages are delivered once and never redelivered, so an ACK or NACK only has to be well formed.
    this.required(f, this.version === '1.2' ? 'id' : 'message-id');
    if (this.version === '1.1') this.required(f, 'subscription');
    this.transaction(f); // a named transaction must be open
    this.receipt(f);
  }

  private begin(f: Frame): void {
    const tx = this.required(f, 'transaction');
    if (tx.length > SESSION_LIMITS.transactionName) {
      throw new Refusal(`transaction names are at most ${SESSION_LIMITS.transactionName} characters`, CLOSE.policy);
    }
    if (this.transactions?.has(tx)) throw new Refusal(`transaction ${JSON.stringify(tx)} is already open`);
    if ((this.transactions?.size ?? 0) >= SESSION_LIMITS.openTransactions) {
      throw new Refusal(`more than ${SESSION_LIMITS.openTransactions} transactions open`, CLOSE.policy);
    }
    (this.transactions ??= new Map()).set(tx, []);
    this.receipt(f);
  }

  private async commit(f: Frame): Promise<void> {
    const tx = this.required(f, 'transaction');
    const held = this.transactions?.get(tx);
    if (!held) throw new Refusal(`no transaction ${JSON.stringify(tx)} is open`);
    this.closeTransaction(tx, held);
    for (const { frame: sent, route } of held) {
      await this.apply(sent, route);
      if (this.currentState !== 'connected') return;
    }
    this.receipt(f);
  }

  private abort(f: Frame): void {
    const tx = this.required(f, 'transaction');
    const held = this.transactions?.get(tx);
    if (!held) throw new Refusal(`no transaction ${JSON.stringify(tx)} is open`);
    this.closeTransaction(tx, held);
    this.receipt(f);
  }

  private closeTransaction(tx: string, held: HeldSend[]): void {
    this.transactions!.delete(tx);
    for (const { frame } of held) this.heldBytes -= sizeOf(frame);
  }

  private disconnect(f: Frame): void {
    this.receipt(f);
    this.transactions = null;
    this.heldBytes = 0;
    this.currentState = 'ending';
    this.liveSocket?.end(CLOSE.normal, 'disconnected');
  }
}

/** A copy of the array with the pair appended, allocated at its exact size (push would add slack). */
function withPair(subs: string[] | null, id: string, destination: string): string[] {
  const length = subs?.length ?? 0;
  const next = new Array<string>(length + 2);
  for (let i = 0; i < length; i++) next[i] = subs![i];
  next[length] = id;
  next[length + 1] = destination;
  return next;
}

/** A handler's refusal keeps its message; any other error is a server fault and stays private. */
function toRefusal(err: unknown): unknown {
  if (err instanceof StompUnavailableError) return new Refusal(err.message, CLOSE.tryAgainLater, { retryable: 'true' });
  if (err instanceof StompHandlerError || err instanceof PayloadError) return new Refusal(err.message, CLOSE.policy);
  return err;
}

/** Roughly what a frame holds in memory: its body and header text (a parse error holds nothing). */
function sizeOf(work: Work): number {
  if (work instanceof StompParseError) return 0;
  let bytes = work.command.length + work.body.length;
  for (const [key, value] of work.headers) bytes += key.length + value.length;
  return bytes;
}
