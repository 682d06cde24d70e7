// The signed-in screens' hosts (AppShell), each loaded on first render with the call and
// notification features, in the chunk every signed-in screen loads.
import type { SignedInHosts } from './AppShell';
import { lazyWithFeatures } from './lazyWithFeatures';

const features = () =>
  Promise.all([
    import(/* webpackChunkName: "signed-in" */ '../features/call/callFeature'),
    import(/* webpackChunkName: "signed-in" */ '../features/notifications/notificationsFeature'),
  ]).then(([call, notifications]) => [call.callFeature, notifications.notificationsFeature]);
const callHost = () => import(/* webpackChunkName: "signed-in" */ '../features/call/CallHost');
const groupCallHost = () => import(/* webpackChunkName: "signed-in" */ '../features/groupCall/GroupCallHost');
const groupCallFeatures = () => import(/* webpackChunkName: "signed-in" */ '../features/groupCall/groupCallFeature').then((m) => [m.groupCallFeature]);
const notificationsHost = () => import(/* webpackChunkName: "signed-in" */ '../features/notifications/NotificationsHost');

export const lazySignedInHosts: SignedInHosts = {
  CallStrip: lazyWithFeatures(() => callHost().then((m) => ({ default: m.CallStrip })), features, { lateServices: true }),
  NotificationsHost: lazyWithFeatures(() => notificationsHost().then((m) => ({ default: m.NotificationsHost })), features, { lateServices: true }),
  CallHost: lazyWithFeatures(() => callHost().then((m) => ({ default: m.CallHost })), features, { lateServices: true }),
  GroupCallHost: lazyWithFeatures(() => groupCallHost().then((m) => ({ default: m.GroupCallHost })), groupCallFeatures, { lateServices: true }),
};
