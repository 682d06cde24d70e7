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
}

export const initialNotificationsState: NotificationsState = { permission: null, promptDismissed: false, asking: false };

const notificationsSlice = createSlice({
  name: 'notifications',
  initialState: initialNotificationsState,
  reducers: {
    /** A signed-in screen is open: read the permission, keep this device's push subscription current. */
    started() {},
    stopped() {},
    enableClicked(state) {
      state.asking = true;
    },
    promptDismissed(state) {
      state.promptDismissed = true;
    },
    permissionRead(state, action: PayloadAction<{ permission: NotificationPermissionState; promptDismissed: boolean }>) {
      state.permission = action.payload.permission;
      state.promptDismissed = action.payload.promptDismissed;
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
