// The survivor's own clients in a reconnect storm (cluster-reconnect-storm.test.ts), in a process
// of their own: a sender sending a receipted message to each room in turn every `everyMs`, and a
// reader subscribed to every room timing SEND → MESSAGE. The test process plays thousands of
// storm clients and stalls for seconds under them; measured there, the figure was the measurer's
// as much as the server's. Talks to its parent over IPC:
//   parent → child: {type: 'measure'} (latencies are kept from now), {type: 'stop'}
//   child → parent: {type: 'ready'} (a first message receipted in every room), then
//                   {type: 'result', latencies, receipted, ownStallMaxMs}; the parent then ends it.
//   node --import tsx storm-probe.ts '{"url":…,"senderCookie":…,"readerCookie":…,"rooms":[…],"everyMs":20}'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { app, topics, WEBSOCKET_PATH } from '@common/destinations';

export interface ProbeArgs {
  url: string;
  senderCookie: string;
  readerCookie: string;
  rooms: number[];
  everyMs: number;
}

export type ProbeCommand = { type: 'measure' } | { type: 'stop' };
export type ProbeReport = { type: 'ready' } | { type: 'result'; latencies: number[]; receipted: string[]; ownStallMaxMs: number };

/** One raw STOMP connection: frames out as text, frames in split at NUL (bodies here are JSON). */
class RawStomp {
  private pending = '';
  private readonly waiting = new Map<string, () => void>();
  onMessage: (body: string) => void = () => {};

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      this.pending += data.toString();
      let end;
      while ((end = this.pending.indexOf('\0')) >= 0) {
        const text = this.pending.slice(0, end).replace(/^[\r\n]+/, '');
        this.pending = this.pending.slice(end + 1);
        const split = text.indexOf('\n\n');
        const [command, ...lines] = text.slice(0, split).split('\n');
        const header = (name: string) => lines.find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1);
        if (command === 'RECEIPT') {
          const id = header('receipt-id') ?? '';
          this.waiting.get(id)?.();
          this.waiting.delete(id);
        } else if (command === 'MESSAGE') this.onMessage(text.slice(split + 2));
        else if (command === 'ERROR') fail(`ERROR from the server: ${header('message')}`);
      }
    });
    ws.on('close', () => {
      if (!stopping) fail('a probe connection closed');
    });
  }

  static open(url: string, cookie: string): Promise<RawStomp> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url.replace(/^http/, 'ws') + WEBSOCKET_PATH, ['v12.stomp'], { headers: { cookie }, perMessageDeflate: false });
      ws.once('error', reject);
      ws.once('open', () => ws.send('CONNECT\naccept-version:1.2\nhost:localhost\nheart-beat:0,0\n\n\0'));
      ws.once('message', (data: Buffer) => (data.toString().startsWith('CONNECTED') ? resolve(new RawStomp(ws)) : reject(new Error(data.toString()))));
    });
  }

  /** Sends a frame with a receipt and waits for it. */
  request(command: string, headers: Record<string, string>, body = ''): Promise<void> {
    const receipt = `r${++receipts}`;
    const head = Object.entries({ ...headers, receipt }).map(([k, v]) => `${k}:${v}`).join('\n');
    return new Promise((resolve) => {
      this.waiting.set(receipt, resolve);
      this.ws.send(`${command}\n${head}\n\n${body}\0`);
    });
  }

  close(): void {
    this.ws.terminate();
  }
}

let receipts = 0;
let stopping = false;

function fail(message: string): never {
  process.stderr.write(`storm probe: ${message}\n`);
  process.exit(1);
}

function report(r: ProbeReport): void {
  process.send!(r);
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2]) as ProbeArgs;
  const [sender, reader] = await Promise.all([RawStomp.open(args.url, args.senderCookie), RawStomp.open(args.url, args.readerCookie)]);
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let measuring = false;
  reader.onMessage = (body) => {
    const at = sentAt.get((JSON.parse(body) as { clientMsgId?: string }).clientMsgId ?? '');
    if (at !== undefined && measuring) latencies.push(performance.now() - at);
  };
  for (const [i, roomId] of args.rooms.entries()) await reader.request('SUBSCRIBE', { id: `sub-${i}`, destination: topics.privateChat(roomId) });

  const ownLoop = monitorEventLoopDelay({ resolution: 10 });
  const receipted: string[] = [];
  let sending = true;
  process.on('message', (command: ProbeCommand) => {
    if (command.type === 'measure') {
      measuring = true;
      ownLoop.enable();
    } else sending = false;
  });
  for (let n = 0; sending; n++) {
    const id = `storm-${n}`;
    sentAt.set(id, performance.now());
    const body = JSON.stringify({ chatRoomId: args.rooms[n % args.rooms.length], content: `폭풍 ${n}`, clientMsgId: id });
    await sender.request('SEND', { destination: app.privateMessage, 'content-type': 'application/json' }, body);
    receipted.push(id);
    if (receipted.length === args.rooms.length) report({ type: 'ready' });
    // A pace for the sender, not a wait for an outcome.
    await new Promise((r) => setTimeout(r, args.everyMs));
  }
  ownLoop.disable();
  stopping = true;
  sender.close();
  reader.close();
  // The parent ends this process once it has the result.
  report({ type: 'result', latencies, receipted, ownStallMaxMs: ownLoop.max / 1e6 });
}

// A parent gone (a failed test) leaves no probe behind.
process.on('disconnect', () => process.exit(0));

main().catch((err: unknown) => fail((err as Error).stack ?? String(err)));
