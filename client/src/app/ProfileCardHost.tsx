// The profile card wherever a person is shown outside the friends tab (the user search's results,
// a room's member list): any screen inside the signed-in layout opens it with useOpenProfile()
// (kernel/profileCard.ts). It loads on first use in a chunk of its own with the friends feature,
// so the screens that can open it carry none of it.
import { Suspense, useState, type ReactNode } from 'react';
import { ProfileCardContext, type ProfilePerson } from '../kernel/profileCard';
import { lazyWithFeatures } from './lazyWithFeatures';

const LazyCard = lazyWithFeatures(
  () => import(/* webpackChunkName: "people" */ './ProfileCardWithCalls'),
  () => import(/* webpackChunkName: "people" */ '../features/friends/friendsFeature').then((m) => [m.friendsFeature]),
);

export function ProfileCardHost({ children }: { children: ReactNode }) {
  const [person, setPerson] = useState<ProfilePerson | null>(null);
  return (
    <ProfileCardContext value={setPerson}>
      {children}
      {person && (
        <Suspense fallback={null}>
          <LazyCard person={person} onClose={() => setPerson(null)} />
        </Suspense>
      )}
    </ProfileCardContext>
  );
}
