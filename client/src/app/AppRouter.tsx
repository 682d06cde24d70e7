// The browser's router in declarative mode (BrowserRouter + useRoutes): the app uses no loaders
// or actions, and the data router would add about 18 KiB of gzip to every page. Sagas navigate
// through `navigator`, which the mounted router fills in.
import { useEffect } from 'react';
import { BrowserRouter, useNavigate, useRoutes, type RouteObject } from 'react-router-dom';
import type { NavigateOptions } from '../kernel/services';

type NavigateFn = (to: string, options?: NavigateOptions) => void;

/** Navigation for code outside React (the sagas' `navigate` service): calls made before the router mounts wait for it. */
export function createNavigator() {
  let navigateNow: NavigateFn | null = null;
  const waiting: Array<[string, NavigateOptions | undefined]> = [];
  return {
    navigate(to: string, options?: NavigateOptions): void {
      if (navigateNow) navigateNow(to, options);
      else waiting.push([to, options]);
    },
    attach(fn: NavigateFn): void {
      navigateNow = fn;
      for (const [to, options] of waiting.splice(0)) fn(to, options);
    },
  };
}

export type Navigator = ReturnType<typeof createNavigator>;

function Routes({ routes, navigator }: { routes: RouteObject[]; navigator: Navigator }) {
  const navigate = useNavigate();
  useEffect(() => {
    navigator.attach((to, options) => void navigate(to, options));
  }, [navigate, navigator]);
  return useRoutes(routes);
}

export function AppRouter({ routes, navigator }: { routes: RouteObject[]; navigator: Navigator }) {
  return (
    <BrowserRouter>
      <Routes routes={routes} navigator={navigator} />
    </BrowserRouter>
  );
}
