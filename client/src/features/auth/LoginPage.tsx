import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'wouter';
import { OAUTH_PROVIDERS, type OAuthProvider } from '@common/api';
import { LIMITS } from '@common/rules';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { BrandMark } from '../../components/Brand';
import { Button } from '../../components/Button';
import { CenteredPage } from '../../components/CenteredPage';
import { StatusLine } from '../../components/StatusLine';
import { TextField } from '../../components/TextField';
import { ko } from '../../i18n/ko';
import { loginPageOpened, loginSubmitted, oauthRequested, selectLoginBusy, selectLoginStatus } from './authSlice';
import { describeLoginStatus } from './loginStatus';

/** The server sends a failed OAuth callback back here with ?oauthError=google|kakao. */
function oauthErrorFrom(params: URLSearchParams): OAuthProvider | null {
  const value = params.get('oauthError');
  return OAUTH_PROVIDERS.find((p) => p === value) ?? null;
}

export default function LoginPage() {
  const dispatch = useAppDispatch();
  const status = useAppSelector(selectLoginStatus);
  const busy = useAppSelector(selectLoginBusy);
  const [params] = useSearchParams();
  const oauthError = oauthErrorFrom(params);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  useEffect(() => {
    dispatch(loginPageOpened({ oauthError }));
  }, [dispatch, oauthError]);

  // A form submit covers the button and Enter in either field.
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    dispatch(loginSubmitted({ email, password }));
  };

  const line = describeLoginStatus(status);
  const statusId = useId();
  // Which fields the status line is about: the empty ones, or both on a mismatch.
  const emailInvalid = status.kind === 'mismatch' || (status.kind === 'incomplete' && !email.trim());
  const passwordInvalid = status.kind === 'mismatch' || (status.kind === 'incomplete' && !password);
  return (
    <CenteredPage title={ko.login.submit}>
      <header className="card__header">
        <BrandMark />
        <h1 className="card__title">{ko.login.title}</h1>
        <p className="card__subtitle">{ko.login.welcome}</p>
      </header>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label={ko.login.email}
          type="email"
          name="email"
          autoComplete="username"
          inputMode="email"
          placeholder={ko.login.emailPlaceholder}
          maxLength={LIMITS.loginInput}
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          errorId={emailInvalid ? statusId : undefined}
        />
        <TextField
          label={ko.login.password}
          type="password"
          name="password"
          autoComplete="current-password"
          placeholder={ko.login.passwordPlaceholder}
          maxLength={LIMITS.loginInput}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          errorId={passwordInvalid ? statusId : undefined}
        />
        <Button type="submit" block busy={status.kind === 'loggingIn'} disabled={busy}>
          {ko.login.submit}
        </Button>
        <StatusLine id={statusId} text={line.text} tone={line.tone} testId="login-status" />
      </form>
      <div className="divider">
        <span>{ko.login.or}</span>
      </div>
      <div className="stack">
        <Button variant="google" block disabled={busy} onClick={() => dispatch(oauthRequested('google'))}>
          <GoogleIcon /> {ko.login.google}
        </Button>
        <Button variant="kakao" block disabled={busy} onClick={() => dispatch(oauthRequested('kakao'))}>
          <KakaoIcon /> {ko.login.kakao}
        </Button>
      </div>
      <p className="card__prompt">
        {ko.login.signUpPrompt} <Link to="/sign-up">{ko.login.signUpLink}</Link>
      </p>
    </CenteredPage>
  );
}

function GoogleIcon() {
  return (
    <svg className="btn__icon" viewBox="0 0 48 48" width="18" height="18" aria-hidden="true">
      <path fill="#EA4335" d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.1C12.5 13.6 17.8 9.5 24 9.5z" />
      <path fill="#4285F4" d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 6.9l7.4 5.7c4.3-4 6.9-9.9 6.9-17.1z" />
      <path fill="#FBBC05" d="M10.5 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.1C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.8-6.1z" />
      <path fill="#34A853" d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.4-5.7c-2.1 1.4-4.8 2.3-8.5 2.3-6.2 0-11.5-4.1-13.4-9.8l-7.9 6.1C6.6 42.6 14.6 48 24 48z" />
    </svg>
  );
}

function KakaoIcon() {
  return (
    <svg className="btn__icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path
        fill="currentColor"
        d="M12 3C6.5 3 2 6.5 2 10.8c0 2.8 1.9 5.3 4.7 6.6l-1 3.6c-.1.3.3.6.6.4l4.3-2.8c.5.1 1 .1 1.4.1 5.5 0 10-3.5 10-7.9S17.5 3 12 3z"
      />
    </svg>
  );
}
