import { useEffect, useId, useState, type FormEvent } from 'react';
import { Redirect } from 'wouter';
import { useNavigationState } from '../../kernel/routing';
import type { NameAndEmail } from '@common/api';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { BackLink } from '../../components/BackLink';
import { Button } from '../../components/Button';
import { CenteredPage } from '../../components/CenteredPage';
import { ProfileFields, type ProfileValues } from '../../components/ProfileFields';
import { StatusLine } from '../../components/StatusLine';
import { TextField } from '../../components/TextField';
import { ko } from '../../i18n/ko';
import { PeopleSettings } from '../friends';
import { NotificationsSwitch } from '../notifications';
import { TypingSwitch } from './TypingSwitch';
import { selectSettings, settingsActions, type SettingsMessage } from './settingsSlice';

/** The fields a failure message is about, so they are marked invalid and tied to the status line. */
function fieldsOf(message: SettingsMessage | null, failed: boolean): Array<keyof ProfileValues | 'currentPassword'> {
  if (!failed || message === null) return [];
  switch (message) {
    case 'passwordRequired':
      return ['password'];
    case 'passwordMismatch':
      return ['confirmPassword'];
    case 'invalidName':
    case 'sameName':
      return ['name'];
    case 'failed':
      return ['name', 'password'];
    case 'currentPasswordRequired':
    case 'wrongCurrentPassword':
      return ['currentPassword'];
    default:
      return [];
  }
}

const t = ko.settings;

/** The chat list's settings link carries {name, email} as router state (docs/spec.md §2). */
function profileFrom(state: unknown): NameAndEmail | null {
  if (!state || typeof state !== 'object') return null;
  const { name, email } = state as Partial<NameAndEmail>;
  return typeof name === 'string' && typeof email === 'string' ? { name, email } : null;
}

export default function SettingsPage() {
  const profile = profileFrom(useNavigationState());
  if (!profile) return <Redirect to="/chat-list" replace />;
  return <SettingsForm profile={profile} />;
}

function SettingsForm({ profile }: { profile: NameAndEmail }) {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectSettings);
  const [fields, setFields] = useState<ProfileValues>({ name: profile.name, password: '', confirmPassword: '' });
  const [currentPassword, setCurrentPassword] = useState('');

  useEffect(() => {
    dispatch(settingsActions.pageOpened());
  }, [dispatch]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    dispatch(settingsActions.updateSubmitted(state.needsCurrentPassword ? { ...fields, currentPassword } : fields));
  };

  const tone = state.failed ? 'error' : state.done ? 'success' : 'neutral';
  const statusId = useId();
  const invalid = fieldsOf(state.message, state.failed);
  return (
    <CenteredPage title={t.title} footer={false}>
      <BackLink to="/chat-list" label={t.back} />
      <header className="card__header card__header--left">
        <h1 className="card__title">{t.title}</h1>
      </header>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField label={t.email} type="email" name="email" value={profile.email} readOnly disabled />
        <ProfileFields
          labels={t}
          values={fields}
          onChange={setFields}
          invalid={invalid.filter((f): f is keyof ProfileValues => f !== 'currentPassword')}
          errorId={statusId}
        />
        {state.needsCurrentPassword && (
          <TextField
            label={t.currentPassword}
            type="password"
            name="currentPassword"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => setCurrentPassword(e.target.value)}
            errorId={invalid.includes('currentPassword') ? statusId : undefined}
            autoFocus
          />
        )}
        <StatusLine id={statusId} text={state.message ? t.messages[state.message] : ''} tone={tone} testId="settings-status" />
        <Button type="submit" block busy={state.pending} disabled={state.done}>
          {t.submit}
        </Button>
      </form>
      <PeopleSettings />
      <TypingSwitch />
      <NotificationsSwitch />
    </CenteredPage>
  );
}
