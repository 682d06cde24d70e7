// The layout around every route. On a signed-in screen the call UI and the notifications host
// sit above it; they load, with the call and notification features, only there (never on /login).
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { lazyWithFeatures } from './lazyWithFeatures';
import { useSignedInUser } from './useSignedInUser';

const signedInFeatures = () =>
  Promise.all([
    import(/* webpackChunkName: "signed-in" */ '../features/call/callFeature'),
    import(/* webpackChunkName: "signed-in" */ '../features/notifications/notificationsFeature'),
  ]).then(([call, notifications]) => [call.callFeature, notifications.notificationsFeature]);
const callHost = () => import(/* webpackChunkName: "signed-in" */ '../features/call/CallHost');
const CallStrip = lazyWithFeatures(() => callHost().then((m) => ({ default: m.CallStrip })), signedInFeatures, { lateServices: true });
const CallHost = lazyWithFeatures(() => callHost().then((m) => ({ default: m.CallHost })), signedInFeatures, { lateServices: true });
const NotificationsHost = lazyWithFeatures(
  () => import(/* webpackChunkName: "signed-in" */ '../features/notifications/NotificationsHost').then((m) => ({ default: m.NotificationsHost })),
  signedInFeatures,
  { lateServices: true },
);

export function AppShell() {
  const signedIn = useSignedInUser() !== null;
  return (
    <div className="app">
      {/* The call bar and the missed-call line sit above every signed-in screen. */}
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
        </Suspense>
      )}
    </div>
  );
}
