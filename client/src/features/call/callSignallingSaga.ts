// The call's signalling (docs/protocol.md call queues and /app/call/*): the user's seven call
// queues as one channel, the SENDs on the call listener's own connection, and the two waits
// before a call connects: the caller's for the peer's answer, the callee's for the user's choice.
// What each signal means in each phase is callRules.ts.
import { buffers, eventChannel, type EventChannel } from 'redux-saga';
import { call, put, race, take, type SagaGenerator } from 'typed-redux-saga';
import { CALL_SIGNALS, queues, type CallSignal } from '@common/destinations';
import { decodeCallEvent } from '@common/events';
import type { CallEvent } from '@common/payloads';
import { service } from '../../kernel/sagaContext';
import type { StompService } from '../../services/stomp';
import { answerOutcome, decideSignal, LOCAL_HANGUP, ringingOutcome, type CallPeer, type Ending } from './callRules';
import { callActions } from './callSlice';

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

/** One SEND of the call; one that could not go out (not connected) is logged, the call goes on. */
export function* publish(destination: string, payload: unknown): SagaGenerator<void> {
  const stomp = yield* service('callStomp');
  const sent = yield* call([stomp, stomp.publish], destination, payload);
  if (!sent) {
    const logError = yield* service('logError');
    yield* call(logError, 'call', new Error(`not connected: ${destination} was not sent`));
  }
}

export function* logSkipped(reason: string): SagaGenerator<void> {
  const logError = yield* service('logError');
  yield* call(logError, 'call signal skipped', new Error(reason));
}

/** Caller, after initiate: the peer's answer decides whether negotiation starts. */
export function* awaitAnswer(signals: EventChannel<SignalMessage>, peer: CallPeer): SagaGenerator<Ending | 'accepted'> {
  for (;;) {
    const { message, hangUp } = yield* race({ message: take(signals), hangUp: take(callActions.hangUpClicked) });
    if (hangUp || !message) return LOCAL_HANGUP;
    const outcome = answerOutcome(decideSignal('outgoing', peer.userId, message.signal, message.event), message.signal);
    if (outcome.kind === 'accepted') return 'accepted';
    if (outcome.kind === 'ringing') {
      yield* put(callActions.peerRang());
      continue;
    }
    if (outcome.kind === 'ended') return outcome.ending;
    yield* logSkipped(outcome.reason);
  }
}

export type Choice = 'accept' | 'reject' | 'cancelled' | 'missed';

/** Callee, while the incoming overlay shows: accept, reject, the caller gives up, or it rings out. */
export function* awaitChoice(signals: EventChannel<SignalMessage>, peer: CallPeer): SagaGenerator<Choice> {
  for (;;) {
    const { message, accept } = yield* race({
      message: take(signals),
      accept: take(callActions.acceptClicked),
      reject: take(callActions.rejectClicked),
    });
    if (accept) return 'accept';
    if (!message) return 'reject';
    const outcome = ringingOutcome(decideSignal('incoming', peer.userId, message.signal, message.event), message.signal);
    if (outcome.kind !== 'skip') return outcome.kind;
    yield* logSkipped(outcome.reason);
  }
}
