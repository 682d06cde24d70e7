// A headless caller: one user signed in over REST, connected over STOMP, subscribed to every
// call queue (docs/protocol.md "Call events"), holding at most one call. Call control (initiate,
// accept, reject, hang up, camera on, ICE restart) is driven by the scenario; the media part runs
// by itself like the browser client: on accepted the caller offers, on an offer the other side
// answers (in either direction during a call: renegotiation), candidates flow both ways, and on
// resume both sides build a new connection and the side with role "caller" offers.
import type { Client, IMessage } from '@stomp/stompjs';
import { api, type CallMedia, type IceServer, type UserSummary } from '@common/api';
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
  /** The tag this side's video frames carry, and the one it expects to see (video.ts); 0 when unused. */
  videoTag?: number;
  expectVideoTag?: number;
  relayOnly: boolean;
  /** Sent as Origin on the WebSocket upgrade, for servers that require one. */
  origin?: string;
  /** What this side uses instead of the server's ICE servers (--network: TURN through the impairing relay). */
  iceServersFor?(servers: IceServer[]): Promise<IceServer[]>;
}

export interface ReceivedEvent {
  signal: CallSignal;
  event: CallEvent;
  /** performance.now() at arrival. */
  at: number;
}

export class WaitTimeout extends Error {}

/**
 * How long the call's caller lets its connection stay disconnected or failed before it restarts
 * ICE itself (docs/protocol.md "Call events": a network change with the socket open).
 */
export const ICE_RESTART_AFTER_MS = 2000;

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
  /** Which side of the current call this is; on resume, the role the server names. */
  role: 'caller' | 'callee' | null = null;
  /** The camera is on in the current call: a video call, or once turned on. */
  camera = false;
  /** Offers this side sent with iceRestart (by the scenario, or by itself after a failure). */
  iceRestarts = 0;
  /** Every RTCPeerConnection of the current call, in order: a resume replaces it. */
  readonly peers: CallPeer[] = [];
  /** Sockets that dropped before CONNECTED and were opened again (shared/stomp.ts), with why. */
  readonly reconnects: string[] = [];
  private readonly consumed = new Set<ReceivedEvent>();
  private waiters: Waiter[] = [];
  /** Remote signalling is applied strictly in arrival order. */
  private signalling: Promise<void> = Promise.resolve();
  private closing = false;
  private restartTimer: NodeJS.Timeout | null = null;
  /** The server said the peer's connection dropped: its resume, not an ICE restart, brings media back. */
  private peerReconnecting = false;

  private constructor(
    readonly options: CallerOptions,
    readonly session: Session,
    readonly iceServers: IceServer[],
    private readonly stomp: Client,
  ) {}

  static async connect(options: CallerOptions): Promise<HeadlessCaller> {
    const session = await login(options.baseUrl, options.email, options.password);
    return HeadlessCaller.open(options, session);
  }

  /**
   * A reloaded page: the same signed-in session (its cookie survives a reload) opens a new
   * connection, fetches the ICE servers and subscribes to its call queues again, knowing nothing
   * of the call it was in until the server says (resume). `baseUrl`: another node of the same
   * cluster, where a load balancer may send the reloaded page.
   */
  static async reload(previous: HeadlessCaller, label = `${previous.label} (reloaded)`, baseUrl = previous.session.baseUrl): Promise<HeadlessCaller> {
    return HeadlessCaller.open({ ...previous.options, label, baseUrl }, { ...previous.session, baseUrl });
  }

  private static async open(options: CallerOptions, session: Session): Promise<HeadlessCaller> {
    const offered = await getJson<IceServer[]>(session, api.iceServers);
    const iceServers = options.iceServersFor ? await options.iceServersFor(offered) : offered;
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

  /** Without media the initiate is the original client's, which means a voice call. */
  initiate(targetUserId: number, media?: CallMedia): void {
    this.beginCall(targetUserId, 'caller', media === 'video');
    this.send(app.callInitiate, media === undefined ? { targetUserId, userId: this.userId } : { targetUserId, userId: this.userId, media });
  }

  /**
   * Accepting prepares the media first, as the browser client does, so the offer finds it. The
   * camera is on when the incoming call said video, unless told otherwise.
   */
  accept(callerId: number, camera?: boolean): void {
    const incoming = this.received.filter((e) => e.signal === 'incoming' && e.event.userId === callerId).at(-1);
    this.beginCall(callerId, 'callee', camera ?? incoming?.event.media === 'video');
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

  /** Turns the camera on during the call and renegotiates (an upgrade to video); false if it already was. */
  startCamera(): boolean {
    this.camera = true;
    if (!this.peer?.startCamera()) return false;
    this.inOrder(() => this.offer());
    return true;
  }

  /** A network change with the socket open: an offer with new ICE credentials over the usual offer/answer. */
  restartIce(): void {
    this.inOrder(() => this.offer({ iceRestart: true }));
  }

  /** Tells the peer what this side sends (docs/protocol.md "Call events": media-state). */
  sendMediaState(state: { muted: boolean; camera: boolean; screen: boolean }): void {
    if (this.peerId !== null) this.send(app.callMediaState, { targetUserId: this.peerId, ...state });
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
   * The first event of that signal (from that user, when given; arrived at or after `since`, a
   * performance.now(), when given) not yet taken by an earlier wait, whether it already arrived
   * or is still to come.
   */
  waitFor(signal: CallSignal, from: number | null, timeoutMs: number, since = -Infinity): Promise<ReceivedEvent> {
    const match = (e: ReceivedEvent) => e.signal === signal && (from === null || e.event.userId === from) && e.at >= since && !this.consumed.has(e);
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
      case 'resume':
        // The server's word that both sides are back (docs/protocol.md "Call events"): the old
        // connection is thrown away, a new one is built with the current tracks, the "caller" offers.
        this.peerReconnecting = false;
        this.beginCall(e.event.userId, e.event.role ?? 'callee', this.camera || e.event.media === 'video', true);
        this.ensurePeer();
        if (this.role === 'caller') this.inOrder(() => this.offer());
        return;
      case 'peer-reconnecting':
        if (fromPeer) this.peerReconnecting = true;
        return;
      case 'incoming':
      case 'ringing':
      case 'media-state':
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

  private async offer(options: { iceRestart?: boolean } = {}): Promise<void> {
    const peer = this.ensurePeer();
    const target = this.peerId;
    if (options.iceRestart) this.iceRestarts++;
    const sdp = await peer.createOffer(options);
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
    if (this.peer) return this.peer;
    const peer: CallPeer = new CallPeer({
      iceServers: this.iceServers,
      relayOnly: this.options.relayOnly,
      toneHz: this.options.toneHz,
      expectHz: this.options.expectHz,
      videoTag: this.options.videoTag ?? 0,
      expectVideoTag: this.options.expectVideoTag ?? 0,
      camera: this.camera,
      sendCandidate: (candidate) => {
        if (this.peerId !== null) this.send(app.callIceCandidate, { targetUserId: this.peerId, candidate });
      },
      stateChanged: (state) => this.watchConnection(peer, state),
      note: (message) => this.problems.push(`${this.label}: ${message}`),
    });
    this.peer = peer;
    this.peers.push(peer);
    return peer;
  }

  /**
   * The call's caller restarts ICE when its connection stays disconnected or failed for 2 s with
   * the socket open (the caller wins on glare, so the callee only waits for that offer).
   */
  private watchConnection(peer: CallPeer, state: RTCPeerConnectionState): void {
    // A connection a resume replaced says nothing about the current one.
    if (peer !== this.peer) return;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    if (this.role !== 'caller' || (state !== 'disconnected' && state !== 'failed')) return;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      const still = this.peer === peer && (peer.connectionState === 'disconnected' || peer.connectionState === 'failed');
      if (still && !this.peerReconnecting && !this.closing && this.stomp.connected) this.restartIce();
    }, ICE_RESTART_AFTER_MS);
  }

  /**
   * A new call (or a resumed one: `fresh`) starts with no media; the previous connection is
   * closed. `camera` is whether this side sends video in it.
   */
  private beginCall(peerId: number, role: 'caller' | 'callee', camera: boolean, fresh = false): void {
    if (fresh || this.peerId !== peerId || this.peer?.connectionState === 'closed') {
      this.peer?.close();
      this.peer = null;
      if (this.peerId !== peerId) this.peers.length = 0;
    }
    if (this.peerId !== peerId) this.peerReconnecting = false;
    this.peerId = peerId;
    this.role = role;
    this.camera = camera;
  }

  /** Closes the media; the peer object stays readable for the report until the next call. */
  private endCall(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    this.peer?.close();
  }
}
