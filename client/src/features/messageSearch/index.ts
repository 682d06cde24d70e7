// The message search box and its results, shown by the chat list and by a room. Other features
// import message search only here.
export { MessageSearchPanel } from './MessageSearchPanel';
export { MessageSearchToggle } from './MessageSearchToggle';
