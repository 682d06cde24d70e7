// /user-settings with the friends feature's stylesheet (its photo, status and 차단 관리 parts):
// the feature's components import none, so that they render in the node tests.
import SettingsPage from '../features/settings/SettingsPage';
import '../features/friends/friends.css';

export default SettingsPage;
