// The layout around every route. On a signed-in screen the call UI and the notifications host
// sit around it; the app passes them loaded lazily with their features (app/signedInHosts.ts),
// so /login downloads none of them, and the component tests pass them as they are.
import { Suspense, type ComponentType } from 'react';
import { Outlet } from '../kernel/routing';
import { useSignedInUser } from '../kernel/useSignedInUser';

export interface SignedInHosts {
  /** The call bar and the missed-call line, above the screen. */
  CallStrip: ComponentType;
  /** The notification prompt on the chat list and the notifications saga's lifetime. */
  NotificationsHost: ComponentType;
  /** The call listener, the incoming-call and in-call overlays and the call's audio. */
  CallHost: ComponentType;
  /** The group-call listener, its ring, its screen or bar and its audio. */
  GroupCallHost: ComponentType;
}

export function AppShell({ hosts }: { hosts: SignedInHosts }) {
  const signedIn = useSignedInUser() !== null;
  const { CallStrip, NotificationsHost, CallHost, GroupCallHost } = hosts;
  return (
    <div className="app">
      {signedIn && (
        <Suspense fallback={null}>
          <CallStrip />
          <NotificationsHost />
        </Suspense>
      )}
      <Outlet />
      {/* Global overlays (the incoming-call and in-call dialogs) mount here, above every route. */}
      {signedIn && (
        <Suspense fallback={null}>
          <CallHost />
          <GroupCallHost />
        </Suspense>
      )}
    </div>
  );
}
