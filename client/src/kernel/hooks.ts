// The only hooks components use to reach the store (Redux style guide). They name no root state:
// the store is assembled in app/, above every feature, and a state type built here from the
// features' slices would import upwards. Instead each selector says which slices it reads
// (`(state: { room: RoomState }) => …`, beside its slice) and useAppSelector takes the state type
// from it; an inline selector that names none does not compile (its state is `unknown`).
import type { Dispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';

/** Plain actions only: sagas do the side effects, so the store has no thunks (app/store.ts). */
export type AppDispatch = Dispatch<UnknownAction>;

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();

/** useSelector whose state is the one its selector declares. */
export const useAppSelector: <State, Selected>(selector: (state: State) => Selected, equalityFn?: (a: Selected, b: Selected) => boolean) => Selected = useSelector;
