// The only hooks components use to reach the store: typed once here (Redux style guide).
import { useDispatch, useSelector, useStore } from 'react-redux';
import type { AppDispatch, AppStore, RootState } from './store';

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
/** The store itself: only for installing features (app/lazyWithFeatures.tsx). */
export const useAppStore = useStore.withTypes<AppStore>();
