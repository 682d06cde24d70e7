// Opening a person's profile card from any screen (the user search, a room's member list): app/
// provides the opener (app/ProfileCardHost.tsx, which loads the card and the friends feature on
// first use), so a feature shows the card without importing the friends feature or its chunk.
import { createContext, useContext } from 'react';

/** Whom a profile card shows: what the opener knows of them (the card adds what the lists say). */
export interface ProfilePerson {
  userId: number;
  name: string;
  photoVersion?: string | null;
  statusMessage?: string | null;
}

export type OpenProfile = (person: ProfilePerson) => void;

export const ProfileCardContext = createContext<OpenProfile | null>(null);

/** The opener of the profile card; null outside the signed-in layout (nothing to open it with). */
export function useOpenProfile(): OpenProfile | null {
  return useContext(ProfileCardContext);
}
