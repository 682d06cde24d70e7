// The notifications switch the settings screen shows. Other features import notifications only here.
export { NotificationsSwitch } from './NotificationsSwitch';
