import { useEffect, useId, useState, type FormEvent } from 'react';
import { LIMITS } from '@common/rules';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { BackLink } from '../../components/BackLink';
import { Button } from '../../components/Button';
import { CenteredPage } from '../../components/CenteredPage';
import { ProfileFields, type ProfileValues } from '../../components/ProfileFields';
import { StatusLine } from '../../components/StatusLine';
import { TextField } from '../../components/TextField';
import { ko } from '../../i18n/ko';
import { useCountdown } from '../../components/useCountdown';
import { resendAvailableAt, selectSignUp, signUpActions, type SignUpMessage, type SignUpState } from './signUpSlice';

type SignUpField = 'email' | 'code' | 'name' | 'password' | 'confirmPassword';

/** The fields a failure message is about, so they are marked invalid and tied to the status line. */
function fieldsOf(message: SignUpMessage | null, failed: boolean, fields: ProfileValues): SignUpField[] {
  if (!failed || message === null) return [];
  switch (message) {
    case 'emailRequired':
    case 'emailExists':
    case 'signUpFailed':
      return ['email'];
    case 'codeRequired':
    case 'wrongCode':
      return ['code'];
    case 'invalidName':
      return ['name'];
    case 'passwordMismatch':
      return ['confirmPassword'];
    case 'incomplete':
      return [...(fields.name ? [] : (['name'] as const)), ...(fields.password ? [] : (['password'] as const))];
    default:
      return [];
  }
}

const t = ko.signUp;

function statusOf(state: SignUpState) {
  if (state.completedName !== null) return { text: t.completed(state.completedName), tone: 'success' as const };
  if (state.pending === 'send') return { text: t.messages.sending, tone: 'neutral' as const };
  if (state.pending === 'verify') return { text: t.messages.verifying, tone: 'neutral' as const };
  if (state.pending === 'signUp') return { text: t.messages.submitting, tone: 'neutral' as const };
  if (state.message === null) return { text: '', tone: 'neutral' as const };
  return { text: t.messages[state.message], tone: state.failed ? ('error' as const) : ('success' as const) };
}

export default function SignUpPage() {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectSignUp);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [fields, setFields] = useState<ProfileValues>({ name: '', password: '', confirmPassword: '' });

  useEffect(() => {
    dispatch(signUpActions.pageOpened());
  }, [dispatch]);

  const busy = state.pending !== null || state.completedName !== null;
  const emailLocked = state.phase !== 'unverified';
  const verified = state.phase === 'verified';
  // While the server would refuse another code (429), the button counts down instead.
  const waitSeconds = useCountdown(resendAvailableAt(state));

  const requestCode = (event?: FormEvent) => {
    event?.preventDefault();
    dispatch(signUpActions.codeRequested({ email }));
  };
  const verifyCode = (event: FormEvent) => {
    event.preventDefault();
    dispatch(signUpActions.codeSubmitted({ code }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    dispatch(signUpActions.formSubmitted(fields));
  };

  const status = statusOf(state);
  const statusId = useId();
  const invalid = fieldsOf(state.message, state.failed, fields);
  const errorOf = (field: SignUpField) => (invalid.includes(field) ? statusId : undefined);
  return (
    <CenteredPage title={t.title}>
      <BackLink to="/login" label={t.back} />
      <header className="card__header card__header--left">
        <h1 className="card__title">{t.title}</h1>
        <p className="card__subtitle">{t.subtitle}</p>
      </header>

      {/* Separate forms so Enter runs the step the user is on. */}
      <form className="form" onSubmit={requestCode} noValidate>
        <TextField
          label={t.email}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          placeholder={t.emailPlaceholder}
          maxLength={LIMITS.email}
          value={emailLocked ? state.email : email}
          readOnly={emailLocked}
          onChange={(e) => setEmail(e.target.value)}
          errorId={errorOf('email')}
          action={
            <Button type="submit" variant="secondary" busy={state.pending === 'send'} disabled={busy || verified || waitSeconds > 0} data-testid="send-code">
              {state.phase === 'unverified' ? t.sendCode : t.resendCode}
              {waitSeconds > 0 && !verified && <span className="btn__countdown">{t.resendWait(waitSeconds)}</span>}
            </Button>
          }
        />
      </form>

      {state.phase !== 'unverified' && (
        <form className="form" onSubmit={verifyCode} noValidate>
          <TextField
            label={t.code}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder={t.codePlaceholder}
            maxLength={LIMITS.verificationCode}
            value={code}
            readOnly={verified}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            errorId={errorOf('code')}
            action={
              <Button type="submit" variant="secondary" busy={state.pending === 'verify'} disabled={busy || verified}>
                {verified ? t.verified : t.verify}
              </Button>
            }
          />
        </form>
      )}

      <form className="form" onSubmit={submit} noValidate>
        <ProfileFields
          labels={t}
          nameHint={t.nameHint}
          values={fields}
          onChange={setFields}
          invalid={invalid.filter((f): f is keyof ProfileValues => f === 'name' || f === 'password' || f === 'confirmPassword')}
          errorId={statusId}
        />
        <StatusLine id={statusId} text={status.text} tone={status.tone} testId="sign-up-status" />
        <Button type="submit" block busy={state.pending === 'signUp'} disabled={busy}>
          {t.submit}
        </Button>
      </form>
    </CenteredPage>
  );
}
