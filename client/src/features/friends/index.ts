// What others use of the people around the user: the settings' parts (photo, status message,
// 차단 관리), the profile card's props and the person it shows. Other screens open the card with
// kernel/profileCard.ts's useOpenProfile() (app/ loads it lazily with this feature); other
// features import friends only here.
export type { ProfilePerson } from './friendsSlice';
export type { ProfileCardProps } from './ProfileCard';
export { PeopleSettings } from './PeopleSettings';
