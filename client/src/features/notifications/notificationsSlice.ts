// System notifications (ours, beyond the spec): whether the browser allows them, and whether the
// user put the in-app prompt aside. The permission is asked only from that prompt, never on load.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { NotificationPermissionState } from '../../services/notifier';

export interface NotificationsState {
  permission: NotificationPermissionState | null;
  /** The prompt was put aside ('나중에'), remembered in local storage. */
  promptDismissed: boolean;
  /** Waiting for the browser's answer to the permission request. */
  asking: boolean;
  /** Turned off in the settings on this device (remembered in local storage). */
  off: boolean;
}

export const initialNotificationsState: NotificationsState = { permission: null, promptDismissed: false, asking: false, off: false };

const notificationsSlice = createSlice({
  name: 'notifications',
  initialState: initialNotificationsState,
  reducers: {
    /** A signed-in screen is open: read the permission, keep this device's push subscription current. */
    started() {},
    stopped() {},
    /** The prompt's button, or the settings switch turned on. */
    enableClicked(state) {
      state.asking = true;
      state.off = false;
    },
    /** The settings switch turned off: no notification, and this device's push subscription ends. */
    turnedOff(state) {
      state.off = true;
    },
    promptDismissed(state) {
      state.promptDismissed = true;
    },
    permissionRead(state, action: PayloadAction<{ permission: NotificationPermissionState; promptDismissed: boolean; off: boolean }>) {
      state.permission = action.payload.permission;
      state.promptDismissed = action.payload.promptDismissed;
      state.off = action.payload.off;
      state.asking = false;
    },
  },
});

export const notificationsActions = notificationsSlice.actions;
export const notificationsReducer = notificationsSlice.reducer;

interface WithNotifications {
  notifications: NotificationsState;
}

/** The prompt shows while the browser would still ask and the user has not put it aside. */
export const selectShowNotificationPrompt = (state: WithNotifications) =>
  state.notifications.permission === 'default' && !state.notifications.promptDismissed;
export const selectNotificationsAsking = (state: WithNotifications) => state.notifications.asking;
/** Notifications show (and push reaches this device) when the browser allows them and the user did not turn them off. */
export const selectNotificationsOn = (state: WithNotifications) => state.notifications.permission === 'granted' && !state.notifications.off;
export const selectNotificationsState = (state: WithNotifications) => state.notifications;
