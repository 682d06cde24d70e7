// A headless caller: one user signed in over REST, connected over STOMP, subscribed to its seven
// call queues, holding at most one call. Call control (initiate, accept, reject, hang up) is
// driven by the scenario; the media part runs by itself like the browser client: on accepted
// the caller offers, on an offer the callee answers, candidates flow both ways.
import type { Client, IMessage } from '@stomp/stompjs';
import { api, type IceServer, type UserSummary } from '@common/api';
import { app, CALL_SIGNALS, queues, type CallSignal } from '@common/destinations';
import { decodeCallEvent, parseJson } from '@common/events';
import type { CallEvent } from '@common/payloads';
import { toIceCandidate, toSessionDescription } from '@common/signalling';
import { getJson, login, type Session } from '../shared/rest';
import { connect } from '../shared/stomp';
import { CallPeer } from './peer';

export interface CallerOptions {
  baseUrl: string;
  email: string;
  password: string;
  /** A short name for messages: "caller", "callee", "third". */
  label: string;
  toneHz: number;
  expectHz: number;
  relayOnly: boolean;
  /** Sent as Origin on the WebSocket upgrade, for servers that require one. */
  origin?: string;
}

export interface ReceivedEvent {
  signal: CallSignal;
  event: CallEvent;
  /** performance.now() at arrival. */
  at: number;
}

export class WaitTimeout extends Error {}

interface Waiter {
  match(e: ReceivedEvent): boolean;
  resolve(e: ReceivedEvent): void;
}

export class HeadlessCaller {
  readonly received: ReceivedEvent[] = [];
  /** STOMP ERROR frames, socket closes, signalling failures: anything a clean call never shows. */
  readonly problems: string[] = [];
  /** Offers, answers and candidates from someone other than the current peer. */
  readonly foreignSignals: ReceivedEvent[] = [];
  peer: CallPeer | null = null;
  peerId: number | null = null;
  /** Sockets that dropped before CONNECTED and were opened again (shared/stomp.ts), with why. */
  readonly reconnects: string[] = [];
  private readonly consumed = new Set<ReceivedEvent>();
  private waiters: Waiter[] = [];
  /** Remote signalling is applied strictly in arrival order. */
  private signalling: Promise<void> = Promise.resolve();
  private closing = false;

  private constructor(
    readonly options: CallerOptions,
    readonly session: Session,
    readonly iceServers: IceServer[],
    private readonly stomp: Client,
  ) {}

  static async connect(options: CallerOptions): Promise<HeadlessCaller> {
    const session = await login(options.baseUrl, options.email, options.password);
    const iceServers = await getJson<IceServer[]>(session, api.iceServers);
    const reconnects: string[] = [];
    const stomp = await connect(session.baseUrl, session.cookie, { origin: options.origin, onReconnect: (reason) => reconnects.push(reason) });
    const caller = new HeadlessCaller(options, session, iceServers, stomp);
    caller.reconnects.push(...reconnects);
    caller.listen();
    return caller;
  }

  get userId(): number {
    return this.session.userId;
  }

  get name(): string {
    return this.session.name;
  }

  get label(): string {
    return this.options.label;
  }

  initiate(targetUserId: number): void {
    this.beginCall(targetUserId);
    this.send(app.callInitiate, { targetUserId, userId: this.userId });
  }

  /** Accepting prepares the media first, as the browser client does, so the offer finds it. */
  accept(callerId: number): void {
    this.beginCall(callerId);
    this.ensurePeer();
    this.send(app.callAccept, { targetUserId: callerId, userId: this.userId });
  }

  reject(callerId: number): void {
    this.send(app.callReject, { targetUserId: callerId, userId: this.userId });
    if (this.peerId === callerId) this.endCall();
  }

  hangup(): void {
    if (this.peerId !== null) this.send(app.callHangup, { targetUserId: this.peerId });
    this.endCall();
  }

  /** Sends any frame: also the hostile ones tests need (forged ids, injections). */
  send(destination: string, body: object): void {
    // Once this caller is closing, late sends (an answer finishing after a hang-up) are moot.
    if (this.closing) return;
    if (!this.stomp.connected) {
      this.problems.push(`${this.label} could not send ${destination}: the STOMP connection is gone`);
      return;
    }
    this.stomp.publish({ destination, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  }

  /**
   * The first event of that signal (from that user, when given) not yet taken by an earlier
   * wait, whether it already arrived or is still to come.
   */
  waitFor(signal: CallSignal, from: number | null, timeoutMs: number): Promise<ReceivedEvent> {
    const match = (e: ReceivedEvent) => e.signal === signal && (from === null || e.event.userId === from) && !this.consumed.has(e);
    const already = this.received.find(match);
    if (already) {
      this.consumed.add(already);
      return Promise.resolve(already);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        match,
        resolve: (e) => {
          clearTimeout(timer);
          this.consumed.add(e);
          resolve(e);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        const who = from === null ? '' : ` from user ${from}`;
        reject(new WaitTimeout(`${this.label} received no ${signal}${who} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Resolves with an event of that signal arriving within the window, or null if none does. */
  async nothingWithin(signal: CallSignal, windowMs: number): Promise<ReceivedEvent | null> {
    try {
      return await this.waitFor(signal, null, windowMs);
    } catch (err) {
      if (err instanceof WaitTimeout) return null;
      throw err;
    }
  }

  /**
   * Resolves once the server shows the user offline to this caller (user search's `online`),
   * polling every 50 ms; rejects after timeoutMs. A connection closed on one node is known to the
   * others a moment later (the cluster's presence in Redis), so a scenario about a user with no
   * open connection waits for that before it calls.
   */
  async seesOffline(user: { userId: number; name: string }, timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = await getJson<UserSummary[]>(this.session, `${api.userSearch}?keyword=${encodeURIComponent(user.name)}`);
      const them = found.find((u) => u.userId === user.userId);
      if (them && them.online === false) return;
      if (Date.now() >= until) throw new Error(`${user.name} still shown ${them ? 'online' : 'missing from the search'} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Loses the connection the hard way: the socket closes with no DISCONNECT frame. */
  async drop(): Promise<void> {
    this.closing = true;
    this.endCall();
    await this.stomp.deactivate({ force: true });
  }

  async close(): Promise<void> {
    this.closing = true;
    this.endCall();
    // DISCONNECT ends the subscriptions with the connection.
    await this.stomp.deactivate();
  }

  private listen(): void {
    this.stomp.onStompError = (frame) => this.problems.push(`${this.label} got STOMP ERROR: ${frame.headers.message ?? ''} ${frame.body}`.trim());
    this.stomp.onWebSocketClose = () => {
      if (!this.closing) this.problems.push(`${this.label}'s WebSocket closed unexpectedly`);
    };
    for (const signal of CALL_SIGNALS) {
      this.stomp.subscribe(queues.call(signal, this.userId), (message) => this.onMessage(signal, message));
    }
  }

  private onMessage(signal: CallSignal, message: IMessage): void {
    const event = decodeCallEvent(signal, parseJson(message.body));
    if (!event) {
      this.problems.push(`${this.label} got a ${signal} that is not a call event: ${message.body.slice(0, 200)}`);
      return;
    }
    const received: ReceivedEvent = { signal, event, at: performance.now() };
    this.received.push(received);
    this.react(received);
    const waiter = this.waiters.find((w) => w.match(received));
    if (waiter) {
      this.waiters = this.waiters.filter((w) => w !== waiter);
      waiter.resolve(received);
    }
  }

  /** The browser client's automatic part of a call. */
  private react(e: ReceivedEvent): void {
    const fromPeer = this.peerId !== null && e.event.userId === this.peerId;
    switch (e.signal) {
      case 'accepted':
        if (fromPeer) this.inOrder(() => this.offer());
        return;
      case 'rejected':
      case 'hangup':
        if (fromPeer) this.endCall();
        return;
      case 'offer':
      case 'answer':
      case 'ice-candidate':
        if (!fromPeer || !this.peer) {
          this.foreignSignals.push(e);
          return;
        }
        this.inOrder(() => this.applyRemote(e));
        return;
      case 'incoming':
        return;
    }
  }

  private inOrder(step: () => Promise<void>): void {
    this.signalling = this.signalling.then(step).catch((err: unknown) => {
      // Signalling still under way when the call ends fails on the closed connection: expected.
      if (this.peer?.connectionState === 'closed') return;
      this.problems.push(`${this.label} signalling failed: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  private async offer(): Promise<void> {
    const peer = this.ensurePeer();
    const target = this.peerId;
    const sdp = await peer.createOffer();
    if (target !== null && this.peer === peer) this.send(app.callOffer, { targetUserId: target, sdp });
  }

  private async applyRemote(e: ReceivedEvent): Promise<void> {
    const peer = this.peer;
    if (!peer) return;
    if (e.signal === 'ice-candidate') {
      const candidate = toIceCandidate(e.event.candidate);
      if (!candidate) throw new Error('an ice-candidate without a candidate');
      await peer.addRemoteCandidate(candidate);
      return;
    }
    const type = e.signal === 'offer' ? 'offer' : 'answer';
    const description = toSessionDescription(e.event.sdp, type);
    if (!description) throw new Error(`an ${type} without a usable sdp`);
    if (type === 'answer') {
      await peer.acceptAnswer(description);
      return;
    }
    const answer = await peer.acceptOffer(description);
    if (answer && this.peer === peer) this.send(app.callAnswer, { targetUserId: e.event.userId, sdp: answer });
  }

  private ensurePeer(): CallPeer {
    this.peer ??= new CallPeer({
      iceServers: this.iceServers,
      relayOnly: this.options.relayOnly,
      toneHz: this.options.toneHz,
      expectHz: this.options.expectHz,
      sendCandidate: (candidate) => {
        if (this.peerId !== null) this.send(app.callIceCandidate, { targetUserId: this.peerId, candidate });
      },
      note: (message) => this.problems.push(`${this.label}: ${message}`),
    });
    return this.peer;
  }

  /** A new call starts with no media; the previous call's peer is closed. */
  private beginCall(peerId: number): void {
    if (this.peerId !== peerId || this.peer?.connectionState === 'closed') {
      this.peer?.close();
      this.peer = null;
    }
    this.peerId = peerId;
  }

  /** Closes the media; the peer object stays readable for the report until the next call. */
  private endCall(): void {
    this.peer?.close();
  }
}
