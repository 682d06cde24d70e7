// The sign-up flow as one loop over the user's actions. The loop blocks while a request runs, so
// clicks during it are ignored (the submit guard); each branch checks the phase it may run in.
import { call, delay, put, select, take, type SagaGenerator } from 'typed-redux-saga';
import { api, type SignUpRequest, type SignUpResponse } from '@common/api';
import { isValidName, LIMITS, normalizeEmail } from '@common/rules';
import { paths } from '../../kernel/paths';
import { service } from '../../kernel/sagaContext';
import { HttpError, NetworkError } from '../../services/http';
import { selectSignUp, SEND_WINDOW, signUpActions, type SignUpForm, type SignUpMessage, type SignUpState } from './signUpSlice';

/** docs/spec.md §8: what a failed send (or resend) of the code tells the user. */
export function sendFailureMessage(error: unknown, resend: boolean): SignUpMessage {
  if (error instanceof HttpError) {
    if (error.status === 401) return 'emailExists';
    if (error.status === 429) return 'resendLimited';
    return resend ? 'tryLater' : 'sendFailed';
  }
  return 'tryLater';
}

export function verifyFailureMessage(error: unknown): SignUpMessage {
  return error instanceof HttpError && error.status === 400 ? 'wrongCode' : 'tryLater';
}

/** The first rule the form breaks, in the order docs/spec.md §5 lists them, or null. */
export function formProblem(state: SignUpState, form: SignUpForm): SignUpMessage | null {
  if (state.phase !== 'verified') return 'verificationRequired';
  if (!state.email || !form.name || !form.password) return 'incomplete';
  if (!isValidName(form.name)) return 'invalidName';
  if (form.password !== form.confirmPassword) return 'passwordMismatch';
  return null;
}

function* logFailure(context: string, error: unknown): SagaGenerator<void> {
  const logError = yield* service('logError');
  yield* call(logError, context, error);
}

function* sendCode(rawEmail: string, state: SignUpState): SagaGenerator<void> {
  if (state.phase === 'verified') return;
  const email = state.phase === 'codeSent' ? state.email : normalizeEmail(rawEmail);
  if (!email) {
    yield* put(signUpActions.failed('emailRequired'));
    return;
  }
  const resent = state.phase === 'codeSent';
  const http = yield* service('http');
  yield* put(signUpActions.requestStarted('send'));
  try {
    yield* call([http, http.post], api.verificationSend, { email });
    yield* put(signUpActions.codeSent({ email, resent, at: Date.now() }));
  } catch (error) {
    yield* logFailure('verification send', error);
    if (error instanceof HttpError && error.status === 429) {
      yield* put(signUpActions.sendRateLimited({ until: Date.now() + (error.retryAfterSeconds ?? SEND_WINDOW.windowMs / 1000) * 1000 }));
    }
    yield* put(signUpActions.failed(sendFailureMessage(error, resent)));
  }
}

function* verifyCode(rawCode: string, state: SignUpState): SagaGenerator<void> {
  if (state.phase !== 'codeSent') return;
  const code = rawCode.trim();
  if (!code) {
    yield* put(signUpActions.failed('codeRequired'));
    return;
  }
  const http = yield* service('http');
  yield* put(signUpActions.requestStarted('verify'));
  try {
    yield* call([http, http.post], api.verificationVerify, { email: state.email, code });
    yield* put(signUpActions.codeVerified());
  } catch (error) {
    yield* logFailure('verification verify', error);
    yield* put(signUpActions.failed(verifyFailureMessage(error)));
  }
}

/** Answers true once the account exists. */
function* submit(form: SignUpForm, state: SignUpState): SagaGenerator<boolean> {
  const problem = formProblem(state, form);
  if (problem) {
    yield* put(signUpActions.failed(problem));
    return false;
  }
  const http = yield* service('http');
  yield* put(signUpActions.requestStarted('signUp'));
  try {
    const body: SignUpRequest = { name: form.name, password: form.password, email: state.email };
    const response = yield* call([http, http.post<SignUpResponse>], api.signUp, body);
    yield* put(signUpActions.completed({ name: response.name }));
    return true;
  } catch (error) {
    yield* logFailure('sign-up', error);
    yield* put(signUpActions.failed(error instanceof NetworkError ? 'tryLater' : 'signUpFailed'));
    return false;
  }
}

type UserAction =
  | ReturnType<typeof signUpActions.codeRequested>
  | ReturnType<typeof signUpActions.codeSubmitted>
  | ReturnType<typeof signUpActions.formSubmitted>;

export function* signUpSaga(): SagaGenerator<void> {
  const { codeRequested, codeSubmitted, formSubmitted } = signUpActions;
  while (true) {
    const action = yield* take<UserAction>([codeRequested, codeSubmitted, formSubmitted]);
    const state = yield* select(selectSignUp);
    if (state.completedName !== null) continue;
    if (codeRequested.match(action)) {
      yield* call(sendCode, action.payload.email, state);
    } else if (codeSubmitted.match(action)) {
      yield* call(verifyCode, action.payload.code, state);
    } else {
      const done = yield* call(submit, action.payload, state);
      if (done) {
        yield* delay(LIMITS.redirectDelayMs);
        const navigate = yield* service('navigate');
        yield* call(navigate, paths.login);
      }
    }
  }
}
