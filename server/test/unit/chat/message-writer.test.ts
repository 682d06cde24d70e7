import { expect } from 'chai';
import pino from 'pino';
import { MessageWriter } from '../../../src/features/chat/message-writer';
import type { BatchOutcome, NewMessage } from '../../../src/features/chat/messages-repository';
import { waitFor, yieldToEventLoop } from '../../support/wait';

const message = (content: string, clientMsgId: string | null = null, senderId: number | null = 1, roomId = 1): NewMessage => ({
  roomId, senderId, content, clientMsgId, leftUserId: null, addedUserEmail: null, systemEvent: null, atMs: 0,
});

/**
 * An in-memory stand-in for the messages table with its unique (sender, room, clientMsgId) key,
 * recognising repeats as storeBatch does; seqs count per room. A statement is answered a turn of the event loop later, or, while `hold`
 * is set, when the test calls release().
 */
class FakeRepo {
  rows: NewMessage[] = [];
  statements: string[][] = [];
  failContent: string | null = null;
  hold = false;
  private readonly held: Array<() => void> = [];

  release(): void {
    this.hold = false;
    this.held.splice(0).forEach((answer) => answer());
  }

  async storeBatch(messages: NewMessage[]): Promise<BatchOutcome[]> {
    this.statements.push(messages.map((m) => m.content));
    if (this.hold) await new Promise<void>((resolve) => this.held.push(resolve));
    else await yieldToEventLoop();
    // Like one transaction: any bad row fails all of them.
    if (messages.some((m) => m.content === this.failContent)) throw Object.assign(new Error('room gone'), { code: 'ER_NO_REFERENCED_ROW_2' });
    return messages.map((m) => {
      const repeated = m.clientMsgId === null ? -1 : this.rows.findIndex((r) => r.senderId === m.senderId && r.roomId === m.roomId && r.clientMsgId === m.clientMsgId);
      if (repeated >= 0) return { duplicateOf: repeated + 1 };
      this.rows.push(m);
      return { id: this.rows.length, seq: this.rows.filter((r) => r.roomId === m.roomId).length };
    });
  }

  async findByClientMsgId(senderId: number, roomId: number, clientMsgId: string): Promise<number | null> {
    const i = this.rows.findIndex((r) => r.senderId === senderId && r.roomId === roomId && r.clientMsgId === clientMsgId);
    return i < 0 ? null : i + 1;
  }
}

describe('MessageWriter', () => {
  const log = pino({ level: 'silent' });

  it('stores messages that arrive together in one statement and announces them in id order', async () => {
    const repo = new FakeRepo();
    const writer = new MessageWriter(repo, log);
    const announced: number[] = [];
    const outcomes = await Promise.all(['a', 'b', 'c'].map((c) => writer.write(message(c), ({ id }) => announced.push(id))));
    expect(repo.statements).to.deep.equal([['a', 'b', 'c']]);
    expect(announced).to.deep.equal([1, 2, 3]);
    expect(outcomes.map((o) => o.kind)).to.deep.equal(['stored', 'stored', 'stored']);
  });

  it('batches the messages that queued while a statement was in flight', async () => {
    const repo = new FakeRepo();
    const writer = new MessageWriter(repo, log);
    const announced: string[] = [];
    repo.hold = true;
    const first = writer.write(message('first'), () => announced.push('first'));
    await waitFor(() => repo.statements.length === 1, 'the first statement in flight');
    const later = ['x', 'y'].map((c) => writer.write(message(c), () => announced.push(c)));
    repo.release();
    await Promise.all([first, ...later]);
    expect(repo.statements).to.deep.equal([['first'], ['x', 'y']]);
    expect(announced).to.deep.equal(['first', 'x', 'y']);
  });

  it('answers a retried clientMsgId with the stored id and announces it only once', async () => {
    const repo = new FakeRepo();
    const writer = new MessageWriter(repo, log);
    const announced: number[] = [];
    const [a, b, c] = await Promise.all([
      writer.write(message('one', 'k1'), ({ id }) => announced.push(id)),
      writer.write(message('other', 'k2'), ({ id }) => announced.push(id)),
      writer.write(message('one again', 'k1'), ({ id }) => announced.push(id)),
    ]);
    expect(a).to.deep.equal({ kind: 'stored', id: 1, seq: 1 });
    expect(b).to.deep.equal({ kind: 'stored', id: 2, seq: 2 });
    expect(c).to.deep.equal({ kind: 'duplicate', id: 1 });
    expect(announced).to.deep.equal([1, 2]);
    expect(repo.rows.map((r) => r.content)).to.deep.equal(['one', 'other']);
  });

  it('stores a batch holding repeats in one transaction, never one message at a time', async () => {
    const repo = new FakeRepo();
    const writer = new MessageWriter(repo, log);
    await writer.write(message('stored before', 'k0'), () => {});
    repo.statements = [];
    const announced: string[] = [];
    const outcomes = await Promise.all(
      [['a', null], ['again', 'k0'], ['b', 'k1'], ['b again', 'k1'], ['c', null]].map(([content, key]) => writer.write(message(content!, key), () => announced.push(content!))),
    );
    expect(repo.statements).to.deep.equal([['a', 'again', 'b', 'b again', 'c']]);
    expect(outcomes).to.deep.equal([
      { kind: 'stored', id: 2, seq: 2 },
      { kind: 'duplicate', id: 1 },
      { kind: 'stored', id: 3, seq: 3 },
      { kind: 'duplicate', id: 3 },
      { kind: 'stored', id: 4, seq: 4 },
    ]);
    expect(announced).to.deep.equal(['a', 'b', 'c']);
  });

  it('refuses only the row that cannot be stored and keeps the others in order', async () => {
    const repo = new FakeRepo();
    repo.failContent = 'bad';
    const writer = new MessageWriter(repo, log);
    const announced: string[] = [];
    const results = await Promise.allSettled(['a', 'bad', 'c'].map((c) => writer.write(message(c), () => announced.push(c))));
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect(announced).to.deep.equal(['a', 'c']);
    expect(repo.rows.map((r) => r.content)).to.deep.equal(['a', 'c']);
  });

  it('stores a clientMsgId the sender already used in another room as a new message', async () => {
    const repo = new FakeRepo();
    const writer = new MessageWriter(repo, log);
    const first = await writer.write(message('here', 'k1', 1, 1), () => {});
    const other = await writer.write(message('there', 'k1', 1, 2), () => {});
    expect(first).to.deep.equal({ kind: 'stored', id: 1, seq: 1 });
    expect(other).to.deep.equal({ kind: 'stored', id: 2, seq: 1 });
  });
});
