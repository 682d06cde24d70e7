import { expect } from 'chai';
import { createLogger } from '../../../src/log';
import { PresenceTracker } from '../../../src/features/chat/presence-tracker';
import { ReadMarkers } from '../../../src/features/chat/read-markers';
import type { ReadPosition } from '../../../src/features/chat/rooms-repository';

/** The rooms repository's read-position rules over one room in memory, counting its statements. */
class RoomInMemory {
  lastSeq = 10;
  readonly stored = new Map<number, { seq: number; atMs: number | null }>();
  statements: ReadPosition[][] = [];
  readBacks = 0;
  lookups = 0;

  async isMember(): Promise<boolean> {
    return true;
  }

  async room() {
    return { name: 'R', lastSeq: this.lastSeq, renamed: false };
  }

  async lastSeqs(roomIds: number[]) {
    this.lookups += 1;
    return roomIds.map((roomId) => ({ roomId, lastSeq: this.lastSeq }));
  }

  /** As the repository's statement: forward only, and trusting that no seq is beyond the newest. */
  async markRead(positions: ReadPosition[]): Promise<number> {
    this.statements.push(positions);
    let moved = 0;
    for (const p of positions) {
      if (p.seq > this.lastSeq) throw new Error(`seq ${p.seq} beyond the newest message reached the statement`);
      const row = this.stored.get(p.userId) ?? { seq: 0, atMs: null };
      if (row.seq < p.seq || (row.seq === p.seq && row.atMs === null)) {
        this.stored.set(p.userId, { seq: p.seq, atMs: p.atMs });
        moved += 1;
      }
    }
    return moved;
  }

  async readPositions(pairs: Array<{ roomId: number; userId: number }>) {
    this.readBacks += 1;
    return pairs.map((p) => {
      const row = this.stored.get(p.userId) ?? { seq: 0, atMs: null };
      return { roomId: p.roomId, userId: p.userId, seq: row.seq, stamped: row.atMs !== null };
    });
  }
}

const ROOM = 7;
const members = [1, 2, 3].map((id) => ({ id, name: `U${id}`, email: `u${id}@x.test` }));

describe('ReadMarkers', () => {
  let room: RoomInMemory;
  let told: Array<{ userId: number; seq: number }>;
  let markers: ReadMarkers;
  beforeEach(() => {
    room = new RoomInMemory();
    told = [];
    markers = new ReadMarkers(
      new PresenceTracker(),
      room,
      { get: async () => members },
      { read: (_roomId: number, userId: number, seq: number) => told.push({ userId, seq }) },
      () => 1000,
      createLogger('silent'),
    );
  });

  it('costs no statement for a read the message\'s publication already stored, and still stores one beyond it', async () => {
    await markers.roomOpened('c2', 2, ROOM);
    await markers.idle();
    expect(room.statements).to.have.length(1);

    markers.messagePublished(ROOM, 10, 1000, 1);
    await markers.idle();
    expect(room.statements).to.have.length(1); // opening read it all: 10 was already stored

    room.lastSeq = 11;
    markers.messagePublished(ROOM, 11, 1000, 1);
    await markers.idle();
    expect(room.statements).to.have.length(2);
    expect(room.stored.get(2)?.seq).to.equal(11);

    // The client's own /app/read for the same message arrives after.
    await markers.read(2, ROOM, 11);
    await markers.read(2, ROOM, 9);
    await markers.idle();
    expect(room.statements).to.have.length(2);
    expect(told).to.deep.equal([{ userId: 2, seq: 10 }, { userId: 2, seq: 11 }]);
  });

  it('learns a position another writer moved further from the read back, and stamps a position not yet stamped', async () => {
    room.stored.set(3, { seq: 8, atMs: 500 }); // moved by another node
    room.stored.set(2, { seq: 4, atMs: null }); // joined at 4, never read
    await markers.read(3, ROOM, 6);
    await markers.read(2, ROOM, 4);
    await markers.idle();
    expect(room.statements).to.have.length(1);
    expect(room.readBacks).to.equal(1);
    expect(room.stored.get(2)).to.deep.equal({ seq: 4, atMs: 1000 });
    expect(told).to.deep.equal([{ userId: 2, seq: 4 }]);

    await markers.read(3, ROOM, 8);
    await markers.read(2, ROOM, 4);
    await markers.idle();
    expect(room.statements).to.have.length(1);
  });

  it('never stores a position beyond the room\'s newest message, looking the room up only for a seq beyond what it knows', async () => {
    await markers.read(2, ROOM, 12);
    await markers.idle();
    expect(room.stored.has(2)).to.equal(false);
    expect(room.statements).to.have.length(0);
    expect(room.lookups).to.equal(1);

    room.lastSeq = 12;
    await markers.read(2, ROOM, 12);
    await markers.idle();
    expect(room.stored.get(2)?.seq).to.equal(12);
    expect(room.lookups).to.equal(2);

    // A message published here is known to exist: reading it needs no lookup.
    room.lastSeq = 13;
    markers.messagePublished(ROOM, 13, 1000, 1);
    await markers.read(3, ROOM, 13);
    await markers.idle();
    expect(room.stored.get(3)?.seq).to.equal(13);
    expect(room.lookups).to.equal(2);
  });

  it('forgets what it knew of a member who left, whose next membership starts from a new row', async () => {
    await markers.read(2, ROOM, 5);
    await markers.idle();
    markers.memberLeft(2, ROOM);
    room.stored.set(2, { seq: 5, atMs: null }); // joined again at 5
    await markers.read(2, ROOM, 5);
    await markers.idle();
    expect(room.statements).to.have.length(2);
    expect(room.stored.get(2)).to.deep.equal({ seq: 5, atMs: 1000 });
  });
});
