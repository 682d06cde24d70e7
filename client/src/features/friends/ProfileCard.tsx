// A person's profile card (KakaoTalk's): a dialog named by their name, with their large photo,
// their status message and what can be done with them: 1:1 채팅, 음성통화 and 영상통화 (the call
// feature's buttons, handed in by app/), 친구 추가 or 친구 삭제, 즐겨찾기, 차단 or 차단 해제.
// Opened from the friends tab, the user search and a room's member list; the lists it reads
// (friends, blocks) load when it opens, so it is right wherever it opens.
import { useEffect, useId, type ReactNode } from 'react';
import { Avatar } from '../../components/Avatar';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { useDialog } from '../../components/dialogs';
import { CloseIcon } from '../../components/icons';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { useSignedInUser } from '../../kernel/useSignedInUser';
import { koPeople } from '../../i18n/koPeople';
import { friendsActions, selectFriendsState, type ProfilePerson } from './friendsSlice';

const t = koPeople.profileCard;

export interface ProfileCardProps {
  person: ProfilePerson;
  onClose(): void;
  /** The 음성통화 and 영상통화 buttons (the call feature's, wired in by app/). */
  callButtons?: (peer: { userId: number; name: string }) => ReactNode;
}

export default function ProfileCard({ person, onClose, callButtons }: ProfileCardProps) {
  const dispatch = useAppDispatch();
  const dialogs = useDialog();
  const myId = useSignedInUser();
  const { friends, blocks, me, pendingUserId, failure } = useAppSelector(selectFriendsState);
  const titleId = useId();

  useEffect(() => {
    dispatch(friendsActions.friendsOpened());
    dispatch(friendsActions.blocksOpened());
  }, [dispatch]);

  const self = person.userId === (me?.userId ?? myId);
  const friend = friends?.find((f) => f.userId === person.userId);
  const blocked = blocks?.some((b) => b.userId === person.userId) ?? false;
  // What the lists say is newer than what the opener knew.
  const shown = self && me ? { ...person, ...me } : friend ? { ...person, name: friend.name, photoVersion: friend.photoVersion, statusMessage: friend.statusMessage } : person;
  const busy = pendingUserId === person.userId;
  // Each button waits for the list it changes: the friends for 친구 추가/삭제 and 즐겨찾기, the blocks for 차단.
  const friendsKnown = friends !== null;
  const blocksKnown = blocks !== null;

  const block = async () => {
    if (await dialogs.confirm(t.confirmBlock(shown.name), { confirmLabel: t.block, destructive: true })) dispatch(friendsActions.blockRequested(person.userId));
  };

  return (
    <Dialog labelledBy={titleId} onCancel={onClose} className="profile-card">
      <button type="button" className="icon-btn profile-card__close" aria-label={t.close} title={t.close} onClick={onClose}>
        <CloseIcon />
      </button>
      <div className="profile-card__face">
        <Avatar name={shown.name} size={120} photo={{ userId: person.userId, photoVersion: shown.photoVersion }} />
        <h2 id={titleId} className="profile-card__name">
          {shown.name}
        </h2>
        {shown.statusMessage && <p className="profile-card__status">{shown.statusMessage}</p>}
      </div>
      {failure && (
        <p className="profile-card__error" role="alert">
          {t.failed[failure]}
        </p>
      )}
      <div className="profile-card__actions">
        <Button variant="primary" disabled={busy || blocked} onClick={() => dispatch(friendsActions.chatRequested(shown))}>
          {t.chat}
        </Button>
        {!self && !blocked && callButtons?.({ userId: person.userId, name: shown.name })}
      </div>
      {!self && (
        <div className="profile-card__actions profile-card__actions--secondary">
          {friend ? (
            <>
              <Button variant="secondary" disabled={busy || !friendsKnown} onClick={() => dispatch(friendsActions.friendRemoveRequested(person.userId))}>
                {t.removeFriend}
              </Button>
              <Button
                variant="secondary"
                aria-pressed={friend.favourite}
                disabled={busy || !friendsKnown}
                onClick={() => dispatch(friendsActions.favouriteRequested({ userId: person.userId, favourite: !friend.favourite }))}
              >
                <span aria-hidden="true">{friend.favourite ? '★ ' : '☆ '}</span>
                {t.favourite}
              </Button>
            </>
          ) : (
            <Button variant="secondary" disabled={busy || !friendsKnown || blocked} onClick={() => dispatch(friendsActions.friendAddRequested(person.userId))}>
              {t.addFriend}
            </Button>
          )}
          {blocked ? (
            <Button variant="secondary" disabled={busy || !blocksKnown} onClick={() => dispatch(friendsActions.unblockRequested(person.userId))}>
              {t.unblock}
            </Button>
          ) : (
            <Button variant="danger" disabled={busy || !blocksKnown} onClick={() => void block()}>
              {t.block}
            </Button>
          )}
        </div>
      )}
    </Dialog>
  );
}
