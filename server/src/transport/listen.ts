// Taking the port on uWebSockets.js: alone (the product), or shared with the other workers of
// WORKERS=N through SO_REUSEPORT, where the kernel spreads new connections over them.
import uWS from 'uWebSockets.js';

/** The package silently falls back to a slow JavaScript implementation when its binary cannot load. */
export function uwsImplementation(): 'native' | 'fallback' {
  return String(uWS.App).includes('[native code]') ? 'native' : 'fallback';
}

/** The port could not be taken (another server holds it, or no permission). */
export class ListenError extends Error {}

// The typings lack the (host, port, options, callback) form the native listen has, and the
// ListenOptions enum they declare is not exported at run time: the form is declared here, with
// the options as the numbers libus defines.
declare module 'uWebSockets.js' {
  interface TemplatedApp {
    listen(host: RecognizedString, port: number, options: number, cb: (listenSocket: us_listen_socket | false) => void): TemplatedApp;
  }
}
const LIBUS_LISTEN_EXCLUSIVE_PORT = 1;
const LIBUS_LISTEN_DEFAULT = 0;

/**
 * uWS shares a port silently by default (SO_REUSEPORT): a second server would start and split
 * the traffic. The product takes its port alone, so a taken port fails at once; only a worker
 * of several (`share`) shares it, with its siblings.
 */
export function listen(app: uWS.TemplatedApp, host: string, port: number, share = false): Promise<uWS.us_listen_socket> {
  return new Promise((resolve, reject) => {
    app.listen(host, port, share ? LIBUS_LISTEN_DEFAULT : LIBUS_LISTEN_EXCLUSIVE_PORT, (socket) =>
      socket ? resolve(socket) : reject(new ListenError(`cannot listen on ${host}:${port}: the port is in use or not allowed`)),
    );
  });
}

/**
 * Rejects with listen()'s ListenError when the port cannot be taken alone: WORKERS=N's supervisor
 * asks before starting its workers, since they share the port (SO_REUSEPORT) and would otherwise
 * share it with another deployment too. Taken and let go at once; a process that takes the port
 * between this and the workers' listen is not seen.
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  const socket = await listen(uWS.App(), host, port);
  uWS.us_listen_socket_close(socket);
}
