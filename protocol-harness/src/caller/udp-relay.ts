// The impaired network of --network: a UDP relay inside the harness between a headless caller and
// the real TURN server (no root, no tc). The caller is given the relay as its TURN server; every
// datagram either way may be dropped or held back (delay ± jitter) before it is passed on. Each
// client address gets its own socket towards TURN, so TURN sees one 5-tuple per client as usual.
import dgram from 'node:dgram';
import type { Impairment } from './network';

export interface RelayTarget {
  host: string;
  port: number;
}

interface DirectionCounts {
  forwarded: number;
  dropped: number;
}

export class ImpairedUdpRelay {
  /** Datagrams towards TURN (up) and towards the client (down). */
  readonly counts = { up: { forwarded: 0, dropped: 0 }, down: { forwarded: 0, dropped: 0 } };
  private readonly upstream = new Map<string, dgram.Socket>();
  private readonly pending = new Set<NodeJS.Timeout>();
  private closed = false;

  private constructor(
    private readonly socket: dgram.Socket,
    private readonly target: RelayTarget,
    private impairment: Impairment,
    private readonly random: () => number,
  ) {
    socket.on('message', (data, from) => this.fromClient(data, from));
  }

  /** Listens on 127.0.0.1 (the callers run in this process) on a free port. */
  static async start(target: RelayTarget, impairment: Impairment, random: () => number = Math.random): Promise<ImpairedUdpRelay> {
    const socket = dgram.createSocket(target.host.includes(':') ? 'udp6' : 'udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, target.host.includes(':') ? '::1' : '127.0.0.1', () => {
        socket.off('error', reject);
        resolve();
      });
    });
    return new ImpairedUdpRelay(socket, target, impairment, random);
  }

  get port(): number {
    return (this.socket.address()).port;
  }

  get address(): string {
    return (this.socket.address()).address;
  }

  get current(): Impairment {
    return this.impairment;
  }

  /** A change of network mid-call: datagrams already held back keep their delay. */
  set(impairment: Impairment): void {
    this.impairment = impairment;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
    for (const s of this.upstream.values()) s.close();
    this.socket.close();
  }

  private fromClient(data: Buffer, from: dgram.RemoteInfo): void {
    const key = `${from.address}|${from.port}`;
    let up = this.upstream.get(key);
    if (!up) {
      const socket = dgram.createSocket(from.family === 'IPv6' ? 'udp6' : 'udp4');
      socket.on('message', (reply) => this.pass(this.counts.down, () => this.socket.send(reply, from.port, from.address)));
      // An unreachable TURN (ICMP) shows up as an error on the socket: the datagram is lost, as on a network.
      socket.on('error', () => undefined);
      this.upstream.set(key, socket);
      up = socket;
    }
    const towards = up;
    this.pass(this.counts.up, () => towards.send(data, this.target.port, this.target.host));
  }

  /** Drops the datagram with the loss probability, else sends it after delay ± jitter. */
  private pass(counts: DirectionCounts, send: () => void): void {
    if (this.closed) return;
    const { lossPct, delayMs, jitterMs } = this.impairment;
    if (lossPct > 0 && this.random() * 100 < lossPct) {
      counts.dropped++;
      return;
    }
    counts.forwarded++;
    const wait = Math.max(0, delayMs + (jitterMs > 0 ? (this.random() * 2 - 1) * jitterMs : 0));
    if (wait === 0) {
      this.safely(send);
      return;
    }
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      if (!this.closed) this.safely(send);
    }, wait);
    this.pending.add(timer);
  }

  private safely(send: () => void): void {
    try {
      send();
    } catch {
      // A socket closed between the receive and the send: nothing to pass it on to.
    }
  }
}
