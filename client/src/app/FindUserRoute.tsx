// /find-user with the call buttons beside each person: the user search feature shows the results
// and the call feature its buttons; the two meet here, in the composition root, so neither
// feature imports the other both ways.
import { CallButtons } from '../features/call';
import FindUserPage from '../features/userSearch/FindUserPage';

export default function FindUserRoute() {
  return <FindUserPage peerActions={(peer) => <CallButtons peer={peer} />} />;
}
