// Cross-site request forgery: a browser names the page's origin in Origin on every request that
// changes state, so one from another origin is refused. A request without Origin (not from a
// browser page, or a same-origin GET) passes: the SameSite=Lax session cookie covers the rest.

const STATE_CHANGING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** Whether this request changes state from a page of another origin (answered 403). */
export function crossOriginWrite(method: string, origin: string | undefined, publicOrigin: string): boolean {
  return STATE_CHANGING.has(method) && origin !== undefined && origin !== publicOrigin;
}
