// The client routes of SPEC.md §2, named once for links, redirects and sagas.
export const paths = {
  entry: '/',
  login: '/login',
  signUp: '/sign-up',
  chatList: '/chat-list',
  findUser: '/find-user',
  chatRoom: '/chat-room',
  invite: '/add-user-to-chat',
  settings: '/user-settings',
  call: '/call',
} as const;
