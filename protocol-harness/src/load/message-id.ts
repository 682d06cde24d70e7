// The identity a load message carries: `{run}:{sender}:{seq}`, used as the chat message's
// clientMsgId (at most 64 characters) and inside broker-mode bodies. The run tag keeps
// messages from other runs or other users out of the accounting.
import crypto from 'node:crypto';

export function newRunTag(): string {
  return `L${crypto.randomBytes(4).toString('hex')}`;
}

export function messageId(run: string, sender: number, seq: number): string {
  return `${run}:${sender}:${seq}`;
}

export interface MessageRef {
  sender: number;
  seq: number;
}

/**
 * Finds `{run}:{sender}:{seq}` anywhere in a frame body without parsing the JSON: the driver
 * reads every delivery of every session, so this is on the hottest path. Null when absent.
 */
export function findMessageId(body: string, run: string): MessageRef | null {
  const at = body.indexOf(run + ':');
  if (at < 0) return null;
  let i = at + run.length + 1;
  let sender = 0;
  let digits = 0;
  for (; i < body.length; i++, digits++) {
    const c = body.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    sender = sender * 10 + c;
  }
  if (digits === 0 || body[i] !== ':') return null;
  i++;
  let seq = 0;
  digits = 0;
  for (; i < body.length; i++, digits++) {
    const c = body.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    seq = seq * 10 + c;
  }
  return digits === 0 ? null : { sender, seq };
}
