// Links a stylesheet emitted as a file (webpack.config.ts, LAZY_LINKED_CSS) and resolves once it
// applies, so a screen that needs it never shows unstyled; the same address is linked once.
const linked = new Map<string, Promise<void>>();

export function linkStylesheet(href: string): Promise<void> {
  let loading = linked.get(href);
  if (!loading) {
    loading = new Promise<void>((resolve) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      // A stylesheet that fails to load must not keep the screen away: it shows, unstyled.
      link.onload = () => resolve();
      link.onerror = () => resolve();
      document.head.appendChild(link);
    });
    linked.set(href, loading);
  }
  return loading;
}
