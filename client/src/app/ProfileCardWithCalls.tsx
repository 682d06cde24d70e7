// The profile card with the call feature's 음성통화/영상통화 buttons (the two features meet in app/).
import { CallButtons } from '../features/call';
import ProfileCard from '../features/friends/ProfileCard';
import type { ProfilePerson } from '../features/friends';
import '../features/friends/friends.css';

export default function ProfileCardWithCalls({ person, onClose }: { person: ProfilePerson; onClose(): void }) {
  return <ProfileCard person={person} onClose={onClose} callButtons={(peer) => <CallButtons peer={peer} />} />;
}
