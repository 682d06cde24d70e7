// The client's routes (docs/spec.md §2), named once: the client routes and links with them, and the
// server answers any other page address with HTTP 404 (the client then shows its 404 page).
export const clientPaths = {
  entry: '/',
  login: '/login',
  signUp: '/sign-up',
  chatList: '/chat-list',
  findUser: '/find-user',
  chatRoom: '/chat-room',
  invite: '/add-user-to-chat',
  settings: '/user-settings',
  call: '/call',
  /** Ours: 통화 기록, the user's calls (docs/spec.md §2). */
  calls: '/calls',
  /** Ours: the home's 친구 tab, the user's friends (issue 26). */
  friends: '/friends',
} as const;

const ROUTES: ReadonlySet<string> = new Set(Object.values(clientPaths));

/** Whether the client has a screen at this path (query strings aside; a trailing slash is a different path, as in the router). */
export function isClientRoute(pathname: string): boolean {
  return ROUTES.has(pathname);
}
