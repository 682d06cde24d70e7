import type { Feature } from '../../kernel/feature';
import { notificationsSaga } from './notificationsSaga';
import { notificationsReducer } from './notificationsSlice';

/** Installed on every signed-in screen (NotificationsHost). */
export const notificationsFeature: Feature = {
  name: 'notifications',
  reducers: { notifications: notificationsReducer },
  sagas: [notificationsSaga],
  lateServices: true,
};
