// The signed-in screens' hosts as they are, not loaded lazily with their features
// (signedInHosts.ts): for the tests that render AppShell around a screen with every feature installed.
import { CallHost, CallStrip } from '../features/call/CallHost';
import { NotificationsHost } from '../features/notifications/NotificationsHost';
import { GroupCallHost } from '../features/groupCall/GroupCallHost';
import type { SignedInHosts } from './AppShell';

export const signedInHosts: SignedInHosts = { CallStrip, NotificationsHost, CallHost, GroupCallHost };
