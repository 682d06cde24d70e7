// The active call's signalling (docs/protocol.md /app/call/*): the SENDs on the call listener's
// own connection, and the two waits before a call connects: the caller's for the peer's answer,
// the callee's for the user's choice. The signals come from the call queues' channel
// (callQueuesSaga.ts); what each means in each phase is callRules.ts and callOutcomeRules.ts.
import type { Channel, EventChannel } from 'redux-saga';
import { call, put, race, take, type SagaGenerator } from 'typed-redux-saga';
import { service } from '../../kernel/sagaContext';
import { answerOutcome, LOCAL_HANGUP, ringingOutcome, type Ending } from './callOutcomeRules';
import { logSkipped, type SignalMessage } from './callQueuesSaga';
import { decideSignal, type CallPeer } from './callRules';
import { callActions } from './callSlice';

/** One SEND of the call; one that could not go out (not connected) is logged, the call goes on. */
export function* publish(destination: string, payload: unknown): SagaGenerator<void> {
  const stomp = yield* service('callStomp');
  const sent = yield* call([stomp, stomp.publish], destination, payload);
  if (!sent) {
    const logError = yield* service('logError');
    yield* call(logError, 'call', new Error(`not connected: ${destination} was not sent`));
  }
}

/** Caller, after initiate: the peer's answer decides whether negotiation starts, unless the user hangs up first. */
export function* awaitAnswer(signals: EventChannel<SignalMessage>, hangUps: Channel<{ type: string }>, peer: CallPeer): SagaGenerator<Ending | 'accepted'> {
  for (;;) {
    const { message, hangUp } = yield* race({ message: take(signals), hangUp: take(hangUps) });
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
