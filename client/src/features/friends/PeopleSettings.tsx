// The settings' people parts (issue 26): the profile photo ('프로필 사진 변경' uploads a JPEG, PNG or
// WebP of at most 10 MiB with its progress; '프로필 사진 삭제'), the status message (at most 60
// characters) and '차단 관리', the people blocked, each with '차단 해제'.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { isValidStatusMessage, LIMITS } from '@common/rules';
import { Avatar } from '../../components/Avatar';
import { Button } from '../../components/Button';
import { StatusLine } from '../../components/StatusLine';
import { TextField } from '../../components/TextField';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { ko } from '../../i18n/ko';
import { koPeople } from '../../i18n/koPeople';
import { uploadProfilePhoto, type PhotoUpload } from '../../services/photoUpload';
import { UploadRefused } from '../../services/upload';
import { friendsActions, selectFriendsState } from './friendsSlice';

const t = koPeople.settings;
const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

/** Why a photo was not taken, in words: before uploading (type, size) or as the server answered. */
export function photoProblem(file: { type: string; size: number }): string | null {
  if (!PHOTO_TYPES.includes(file.type)) return t.photoWrongType;
  if (file.size > LIMITS.photoBytes) return t.photoTooLarge;
  return null;
}

function refusalText(error: unknown): string {
  if (error instanceof UploadRefused) {
    if (error.status === 413) return t.photoTooLarge;
    if (error.status === 400 || error.status === 415) return t.photoRefused;
  }
  return t.photoFailed;
}

export function PeopleSettings() {
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(friendsActions.friendsOpened());
    dispatch(friendsActions.blocksOpened());
  }, [dispatch]);
  return (
    <>
      <PhotoSettings />
      <StatusSettings />
      <BlockList />
    </>
  );
}

function PhotoSettings() {
  const dispatch = useAppDispatch();
  const { me, failure } = useAppSelector(selectFriendsState);
  const input = useRef<HTMLInputElement>(null);
  const current = useRef<PhotoUpload | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();

  // Leaving the settings cancels an upload still running.
  useEffect(() => () => current.current?.cancel(), []);

  const upload = async (file: File) => {
    const problem = photoProblem(file);
    setError(problem);
    if (problem) return;
    const started = uploadProfilePhoto(file, (fraction) => setProgress(Math.round(fraction * 100)));
    current.current = started;
    setProgress(0);
    try {
      const { photoVersion } = await started.done;
      dispatch(friendsActions.photoChanged(photoVersion));
    } catch (err) {
      if (current.current === started) setError(refusalText(err));
    } finally {
      if (current.current === started) setProgress(null);
      current.current = null;
    }
  };

  const text = progress !== null ? t.photoUploading(progress) : (error ?? (failure === 'photo' ? koPeople.profileCard.failed.photo : ''));
  return (
    <section className="settings-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="settings-section__title">
        {t.profile}
      </h2>
      <div className="settings-photo">
        <Avatar name={me?.name ?? ''} size={96} photo={me ? { userId: me.userId, photoVersion: me.photoVersion } : undefined} />
        <div className="settings-photo__actions">
          <Button variant="secondary" busy={progress !== null} disabled={!me || progress !== null} onClick={() => input.current?.click()}>
            {t.changePhoto}
          </Button>
          <input
            ref={input}
            type="file"
            accept={PHOTO_TYPES.join(',')}
            hidden
            aria-label={t.changePhoto}
            data-testid="photo-input"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void upload(file);
            }}
          />
          {me?.photoVersion && (
            <Button variant="ghost" disabled={progress !== null} onClick={() => dispatch(friendsActions.photoDeleteRequested())}>
              {t.deletePhoto}
            </Button>
          )}
          <span className="field__hint">{t.photoTypes}</span>
        </div>
      </div>
      {progress !== null && <progress className="settings-photo__progress" max={100} value={progress} aria-label={t.changePhoto} />}
      <StatusLine text={text} tone={error || failure === 'photo' ? 'error' : 'neutral'} testId="photo-status" />
    </section>
  );
}

function StatusSettings() {
  const dispatch = useAppDispatch();
  const { me, savingStatus, failure } = useAppSelector(selectFriendsState);
  const [text, setText] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const statusId = useId();
  const value = text ?? me?.statusMessage ?? '';
  const valid = isValidStatusMessage(value);
  const wasSaving = useRef(false);

  // Saved once the request that was running ends without a failure.
  useEffect(() => {
    if (wasSaving.current && !savingStatus && failure !== 'status') setSaved(true);
    wasSaving.current = savingStatus;
  }, [savingStatus, failure]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    setSaved(false);
    dispatch(friendsActions.statusSubmitted(value));
  };
  const message = failure === 'status' ? koPeople.profileCard.failed.status : saved ? t.statusSaved : '';
  return (
    <form className="form settings-section" onSubmit={submit} noValidate>
      <TextField
        label={t.statusMessage}
        name="statusMessage"
        value={value}
        maxLength={LIMITS.statusMessage}
        disabled={!me}
        onChange={(e) => {
          setText(e.target.value);
          setSaved(false);
        }}
        hint={`${[...value].length}/${LIMITS.statusMessage}`}
        errorId={failure === 'status' ? statusId : undefined}
      />
      <StatusLine id={statusId} text={message} tone={failure === 'status' ? 'error' : 'success'} testId="status-message-status" />
      <Button type="submit" variant="secondary" busy={savingStatus} disabled={!me || !valid}>
        {t.saveStatus}
      </Button>
    </form>
  );
}

function BlockList() {
  const dispatch = useAppDispatch();
  const { blocks, pendingUserId, failure } = useAppSelector(selectFriendsState);
  const titleId = useId();
  return (
    <section className="settings-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="settings-section__title">
        {t.blocks}
      </h2>
      {failure === 'block' && <p role="alert">{koPeople.profileCard.failed.block}</p>}
      {blocks === null ? (
        <p className="loading-line">{ko.app.loading}</p>
      ) : blocks.length === 0 ? (
        <p className="settings-section__empty">{t.noBlocks}</p>
      ) : (
        <ul className="user-rows">
          {blocks.map((person) => (
            <li key={person.userId} className="user-row" data-testid="blocked-row">
              <Avatar name={person.name} size={36} photo={person} />
              <span className="user-row__text">
                <span className="user-row__name">{person.name}</span>
              </span>
              <Button variant="secondary" className="user-row__action" disabled={pendingUserId === person.userId} onClick={() => dispatch(friendsActions.unblockRequested(person.userId))}>
                {t.unblock}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
