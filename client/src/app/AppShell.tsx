import { Outlet } from 'react-router-dom';
import { CallHost, CallStrip } from '../features/call/CallHost';
import { NotificationsHost } from '../features/notifications/NotificationsHost';

/** The layout around every route. */
export function AppShell() {
  return (
    <div className="app">
      {/* The call bar and the missed-call line sit above every screen. */}
      <CallStrip />
      <NotificationsHost />
      <Outlet />
      {/* Global overlays (the incoming-call and in-call dialogs) mount here, above every route. */}
      <CallHost />
    </div>
  );
}
