// The browser tab title's count prefix for unseen messages (SPEC.md §2, §4): "(3) Let's Chat".
import { useEffect } from 'react';

const PREFIX = /^\(\d+\) /;

export function titleWithCount(title: string, count: number): string {
  const base = title.replace(PREFIX, '');
  return count > 0 ? `(${count}) ${base}` : base;
}

export function useTabTitleCount(count: number): void {
  useEffect(() => {
    document.title = titleWithCount(document.title, count);
  }, [count]);
  useEffect(() => () => {
    document.title = titleWithCount(document.title, 0);
  }, []);
}
