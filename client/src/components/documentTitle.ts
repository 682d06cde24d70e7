// The browser tab's title: each screen names itself ("채팅 - Let's Chat", the room's name in a
// room), with the count prefix of docs/spec.md §2 and §4 for unseen messages: "(3) 채팅 - Let's Chat".
import { useEffect } from 'react';

export const APP_NAME = "Let's Chat";

const PREFIX = /^\(\d+\) /;

export function titleWithCount(title: string, count: number): string {
  const base = title.replace(PREFIX, '');
  return count > 0 ? `(${count}) ${base}` : base;
}

/** "{screen} - Let's Chat", or the app's name alone for a screen without a name of its own. */
export function screenTitle(screen: string | null): string {
  return screen ? `${screen} - ${APP_NAME}` : APP_NAME;
}

/** Sets the tab title while the screen is shown; `count` is its unseen-message prefix. */
export function useDocumentTitle(screen: string | null, count = 0): void {
  useEffect(() => {
    document.title = titleWithCount(screenTitle(screen), count);
  }, [screen, count]);
}
