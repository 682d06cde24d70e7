// The user's call queues (docs/protocol.md call queues): the spec's seven and ours as one
// channel, which the call listener opens at once on every signed-in screen and the active call
// (activeCall.ts, loaded when a call starts) reads on. What each signal means in each phase is
// callRules.ts.
import { buffers, eventChannel, type EventChannel } from 'redux-saga';
import { call, type SagaGenerator } from 'typed-redux-saga';
import { CALL_SIGNALS, queues, type CallSignal } from '@common/destinations';
import { decodeCallEvent } from '@common/events';
import type { CallEvent } from '@common/payloads';
import { service } from '../../kernel/sagaContext';
import type { StompService } from '../../services/stomp';

export interface SignalMessage {
  signal: CallSignal;
  event: CallEvent;
}

/** Every signal on the user's call queues (the spec's seven and ours), in arrival order, none dropped while busy. */
export function callSignalChannel(stomp: StompService, userId: number, logError: (context: string, error: unknown) => void): EventChannel<SignalMessage> {
  return eventChannel<SignalMessage>((emit) => {
    const unsubscribes = CALL_SIGNALS.map((signal) =>
      stomp.subscribe(queues.call(signal, userId), {
        message(body) {
          const event = decodeCallEvent(signal, body);
          if (event) emit({ signal, event });
          else logError(`call ${signal}`, new Error('call signal without a valid userId'));
        },
      }),
    );
    return () => unsubscribes.forEach((unsubscribe) => unsubscribe());
  }, buffers.expanding<SignalMessage>(16));
}

export function* logSkipped(reason: string): SagaGenerator<void> {
  const logError = yield* service('logError');
  yield* call(logError, 'call signal skipped', new Error(reason));
}
