import type { Feature } from '../../kernel/feature';
import { preferencesSaga } from './preferencesSaga';
import { preferencesReducer } from './preferencesSlice';
import { settingsSaga } from './settingsSaga';
import { settingsReducer } from './settingsSlice';

/** Installed with /user-settings: the profile form and the typing preference. */
export const settingsFeature: Feature = {
  name: 'settings',
  reducers: { settings: settingsReducer, preferences: preferencesReducer },
  sagas: [settingsSaga, preferencesSaga],
};
