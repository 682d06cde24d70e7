import { Outlet } from 'react-router-dom';
import { CallHost } from '../features/call/CallHost';

/** The layout around every route. */
export function AppShell() {
  return (
    <div className="app">
      <Outlet />
      {/* Global overlays (the incoming-call and in-call dialogs) mount here, above every route. */}
      <CallHost />
    </div>
  );
}
