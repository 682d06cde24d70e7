// The link a message shows in its room's drawer (docs/protocol.md, the drawer): a person's
// message's first http(s) URL as written, found as link previews find theirs (url-finder.ts).
import { MAX_URL_LENGTH, urlsIn } from '../link-previews/url-finder';

export function drawerLink(content: string): string | null {
  if (!/https?:\/\//i.test(content)) return null;
  return urlsIn(content).find((u) => u.length <= MAX_URL_LENGTH) ?? null;
}
