// Who blocked whom, as the chat sees it (apart from chat-deps.ts so that the parts ChatDeps
// names can use it without a cycle).
/**
 * Who blocked whom (people's blocks, docs/protocol.md): a blocked person's messages are kept
 * from the one who blocked them (fan-out, history, search, unread counts, push, typing, presence).
 */
export interface BlockLookup {
  /** Whom the user blocked. */
  blockedBy(userId: number): Promise<Set<number>>;
  /** Who blocked the user. */
  blockersOf(userId: number): Promise<Set<number>>;
  /** Whether `userId` blocked `otherId`. */
  blocks(userId: number, otherId: number): Promise<boolean>;
  /** Among these users, who blocked whom. */
  among(userIds: readonly number[]): Promise<Array<{ userId: number; blockedId: number }>>;
}

/** No one blocked anyone (a chat assembled without people's blocks). */
export const NO_BLOCKS: BlockLookup = {
  blockedBy: () => Promise.resolve(new Set()),
  blockersOf: () => Promise.resolve(new Set()),
  blocks: () => Promise.resolve(false),
  among: () => Promise.resolve([]),
};
