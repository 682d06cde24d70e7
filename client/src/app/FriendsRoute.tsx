// /friends with the profile card's call buttons: the friends feature shows the people and the call
// feature its 음성통화/영상통화 buttons; they meet here, in the composition root.
import FriendsPage from '../features/friends/FriendsPage';
import ProfileCardWithCalls from './ProfileCardWithCalls';
import '../features/friends/friends.css';

export default function FriendsRoute() {
  return <FriendsPage renderCard={(person, onClose) => <ProfileCardWithCalls person={person} onClose={onClose} />} />;
}
