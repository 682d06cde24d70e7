// 통화 기록 (docs/spec.md §2): the user's calls, newest first, a page at a time (GET /api/calls),
// each with who, 발신/수신, 음성/영상, how it ended and when, and 음성통화/영상통화 buttons to call
// back; the missed calls among those loaded are counted at the top. Reached from the chat list's header.
import { useEffect } from 'react';
import type { CallRecord } from '@common/api';
import { callDuration } from '@common/system-text';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { paths } from '../../kernel/paths';
import { Avatar } from '../../components/Avatar';
import { BackButton } from '../../components/BackButton';
import { useDocumentTitle } from '../../components/documentTitle';
import { relativeTime } from '../../components/relativeTime';
import { koCall } from '../../i18n/koCall';
import { CallButtons } from './CallButtons';
import { callHistoryActions, selectCallHistory, selectMissedCallCount } from './callHistorySlice';
import { isMissedCall } from './callHistoryRules';

const t = koCall;

function outcomeText(entry: CallRecord): string {
  const kind = entry.media === 'video' ? t.videoCall : t.voiceCall;
  if (entry.outcome === 'answered') return `${entry.direction === 'outgoing' ? t.record.outgoing : t.record.incoming} ${kind} ${callDuration(entry.durationSec)}`;
  if (isMissedCall(entry)) return `${t.record.missed} · ${kind}`;
  if (entry.outcome === 'missed') return `${t.record.noAnswer} · ${kind}`;
  if (entry.outcome === 'cancelled') return `${t.record.cancelled} · ${kind}`;
  return `${entry.direction === 'outgoing' ? t.record.rejectedByPeer : t.record.rejectedByMe} · ${kind}`;
}

export default function CallHistoryPage() {
  const dispatch = useAppDispatch();
  const { entries, hasMore, loading, failed } = useAppSelector(selectCallHistory);
  const missed = useAppSelector(selectMissedCallCount);
  useDocumentTitle(t.history.title);
  useEffect(() => {
    dispatch(callHistoryActions.historyOpened());
  }, [dispatch]);
  const now = Date.now();

  return (
    <main className="call-page">
      <header className="screen__header call-page__bar">
        <BackButton to={paths.chatList} label={t.back} />
        <h1 className="screen__title">{t.history.title}</h1>
      </header>
      {missed > 0 && (
        <p className="call-history__missed" data-testid="missed-count">
          {t.history.missedCount(missed)}
        </p>
      )}
      {failed && <p role="alert">{t.history.loadFailed}</p>}
      {!loading && !failed && entries.length === 0 && <p className="call-empty__hint">{t.history.empty}</p>}
      <ul className="call-history">
        {entries.map((entry) => (
          <li key={entry.callId} className={isMissedCall(entry) ? 'call-history__entry call-history__entry--missed' : 'call-history__entry'} data-testid="call-history-entry">
            <Avatar name={entry.peerName} size={40} photo={{ userId: entry.peerUserId, photoVersion: entry.peerPhotoVersion }} />
            <span className="call-history__who">
              <span className="call-history__name">{entry.peerName}</span>
              <span className="call-history__meta">
                {outcomeText(entry)} · {relativeTime(entry.startedAt, now)}
              </span>
            </span>
            <CallButtons peer={{ userId: entry.peerUserId, name: entry.peerName }} />
          </li>
        ))}
      </ul>
      {hasMore && (
        <button type="button" className="btn" disabled={loading} onClick={() => dispatch(callHistoryActions.historyMoreRequested())}>
          {t.history.more}
        </button>
      )}
    </main>
  );
}
