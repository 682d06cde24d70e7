// One SEND of the open room on the app's STOMP connection (docs/protocol.md). It answers whether
// the frame went out: nothing is queued while disconnected, each caller decides what that means
// (a pending message times out and is sent again; a read or presence is simply sent later).
import { call, type SagaGenerator } from 'typed-redux-saga';
import { service } from '../../kernel/sagaContext';

export function* publish(destination: string, payload: unknown): SagaGenerator<boolean> {
  const stomp = yield* service('stomp');
  return yield* call([stomp, stomp.publish], destination, payload);
}
