// Which mentions a message keeps (docs/protocol.md, /app/private-message `mentions`): current
// members other than the sender and anyone who blocked the sender, each once, in the order
// given, the first LIMITS.mentionsPerMessage.
import { expect } from 'chai';
import { LIMITS } from '@common/rules';
import { keptMentions } from '../../../src/features/chat/send-message';
import type { ChatUser } from '../../../src/features/chat/rooms-repository';

const member = (id: number, blocks?: number[]): ChatUser => ({ id, name: `M${id}`, email: `m${id}@example.test`, ...(blocks ? { blocks } : {}) });

describe('the mentions a message keeps', () => {
  it('keeps other members once each, in the order given, and drops the sender, outsiders and whoever blocked the sender', () => {
    const members = [member(1), member(2), member(3, [1]), member(4)];
    expect(keptMentions([4, 1, 9, 2, 4, 3, 2], members, 1)).to.deep.equal([4, 2]);
    expect(keptMentions([], members, 1)).to.deep.equal([]);
  });

  it('keeps at most the limit, the first ones given', () => {
    const members = Array.from({ length: LIMITS.mentionsPerMessage + 11 }, (_, i) => member(i + 1));
    const asked = members.map((m) => m.id).reverse();
    expect(keptMentions(asked, members, 999)).to.deep.equal(asked.slice(0, LIMITS.mentionsPerMessage));
  });
});
