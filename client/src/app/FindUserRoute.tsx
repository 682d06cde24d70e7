// /find-user with the call buttons beside each person and their profile card a tap away: the user
// search feature shows the results, the call feature its buttons and the friends feature the card
// (app/ProfileCardHost.tsx); they meet here, in the composition root, so no feature imports another both ways.
import { CallButtons } from '../features/call';
import FindUserPage from '../features/userSearch/FindUserPage';
import { useOpenProfile } from '../kernel/profileCard';

export default function FindUserRoute() {
  const openProfile = useOpenProfile();
  return <FindUserPage peerActions={(peer) => <CallButtons peer={peer} />} onOpenProfile={openProfile ?? undefined} />;
}
