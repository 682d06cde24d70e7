import { expect } from 'chai';
import { findMessageId, messageId, newRunTag } from '../../../src/load/message-id';

describe('load message identity', () => {
  it('is found again inside a JSON body, escaped or not', () => {
    const run = newRunTag();
    const id = messageId(run, 123, 45678);
    expect(findMessageId(JSON.stringify({ content: `load ${id} ....`, clientMsgId: id }), run)).to.deep.equal({ sender: 123, seq: 45678 });
    expect(id.length).to.be.at.most(64);
  });

  it('is not found in bodies of another run or without digits', () => {
    expect(findMessageId('{"clientMsgId":"Labc:1:2"}', 'Lxyz')).to.equal(null);
    expect(findMessageId('{"clientMsgId":"Lxyz:1:"}', 'Lxyz')).to.equal(null);
    expect(findMessageId('{"clientMsgId":"Lxyz::3"}', 'Lxyz')).to.equal(null);
  });
});
