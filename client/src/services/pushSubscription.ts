// Ends this browser's push subscription, if it has one, and says which endpoint it was. Its own
// module, with nothing else, because a logout needs it on every screen: the login page runs
// before the notifier (a late service, app/lateServices.ts) is loaded.
export async function endBrowserPushSubscription(): Promise<string | null> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return null;
  // No registration means no subscription: do not install the worker just to find out.
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return null;
  const { endpoint } = subscription;
  await subscription.unsubscribe();
  return endpoint;
}
