// The app's routes as a tree of layouts and screens, on wouter (about 2 KiB of gzip where
// react-router's declarative mode took 12.6 KiB on every page). A layout shows the screen matched
// inside it where it puts <Outlet />, as it did with react-router; the first route whose path (or
// one of whose children's paths) matches the location wins, '*' or no path matching anything.
// Paths match as wouter matches them (case aside, a trailing slash allowed).
import { createContext, useContext, type ReactNode } from 'react';
import { matchRoute, useLocation, useRouter } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';

export interface AppRoute {
  /** Absent: a layout around its children. */
  path?: string;
  element: ReactNode;
  children?: AppRoute[];
}

const OutletContext = createContext<ReactNode>(null);

/** Where a layout shows the screen matched inside it. */
export function Outlet() {
  return <>{useContext(OutletContext)}</>;
}

type Matches = (path: string) => boolean;

/** The routes from the outermost layout to the matched screen, or null. */
function chainOf(routes: readonly AppRoute[], matches: Matches): AppRoute[] | null {
  for (const route of routes) {
    if (route.children) {
      const inner = chainOf(route.children, matches);
      if (inner) return [route, ...inner];
    } else if (route.path === undefined || route.path === '*' || matches(route.path)) {
      return [route];
    }
  }
  return null;
}

export function RouteTree({ routes }: { routes: readonly AppRoute[] }) {
  const router = useRouter();
  const [pathname] = useLocation();
  const chain = chainOf(routes, (path) => matchRoute(router.parser, path, pathname)[0]);
  if (!chain) return null;
  return chain.reduceRight<ReactNode>((inner, route) => <OutletContext.Provider value={inner}>{route.element}</OutletContext.Provider>, null);
}

/**
 * The state the navigation to this screen carried (a Link's or navigate's `state`), read by a
 * hook: the browser keeps it in history.state; a memory location (component tests) provides its own.
 */
export const NavigationStateContext = createContext<() => unknown>(useHistoryState);

export function useNavigationState(): unknown {
  const useCarriedState = useContext(NavigationStateContext);
  return useCarriedState();
}
