// Which route answers a request: exact paths by one map lookup, paths with `:name` segments by
// regular expressions tried in the order the routes were added.
import type { Route } from './route';

/** A route whose path has `:name` segments, matched by a regular expression. */
interface PatternRoute { method: string; regex: RegExp; names: string[]; route: Route }

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

function compilePattern(route: Route): PatternRoute {
  const names: string[] = [];
  const source = route.path.split('/').map((segment) => {
    if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(segment.slice(1));
    return '([^/]+)';
  }).join('/');
  return { method: route.method, regex: new RegExp(`^${source}$`), names, route };
}

export class RouteTable {
  private readonly routes = new Map<string, Route>();
  private readonly patterns: PatternRoute[] = [];

  add(routes: Route[]): void {
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      if (this.routes.has(key)) throw new Error(`route defined twice: ${key}`);
      this.routes.set(key, route);
      if (route.path.includes('/:')) this.patterns.push(compilePattern(route));
    }
  }

  match(method: string, path: string): RouteMatch | null {
    const exact = this.routes.get(`${method} ${path}`);
    if (exact) return { route: exact, params: {} };
    for (const p of this.patterns) {
      if (p.method !== method) continue;
      const m = p.regex.exec(path);
      if (m) return { route: p.route, params: Object.fromEntries(p.names.map((n, i) => [n, decodeURIComponent(m[i + 1])])) };
    }
    return null;
  }

  /** Whether some route, of whatever method, has this path (405 rather than 404). */
  hasPath(path: string): boolean {
    return [...this.routes.values()].some((r) => r.path === path) || this.patterns.some((p) => p.regex.test(path));
  }
}
