// The people search: the screen the invite page shares, and the search itself (its actions and
// results), which the call page uses too. Other features import user search only here.
export { UserSearchScreen, type UserSearchScreenProps } from './UserSearchScreen';
export { selectUserSearch, userSearchOpened, userSearchSubmitted } from './userSearchSlice';
