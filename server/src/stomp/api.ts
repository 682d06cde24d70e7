// What the STOMP layer offers to features, and what features give it. Features depend on
// these types only, never on sockets or frames.

/** The user behind a STOMP connection, from the session cookie checked at the upgrade. */
export interface StompPrincipal {
  userId: number;
  /** The HTTP login session the socket was opened with (logout closes its sockets). */
  authSessionId: string;
  /** This connection's STOMP session id. */
  connectionId: string;
}

/** Handles a SEND to one /app/... destination. Throwing StompHandlerError answers ERROR. */
export type AppHandler = (user: StompPrincipal, body: string) => Promise<void> | void;

export class StompHandlerError extends Error {}

/**
 * The server cannot handle the frame now (its database is unreachable): answered with an ERROR
 * carrying `retryable:true` and the WebSocket close code 1013 (try again later). Nothing was
 * stored or acknowledged, so a client reconnects and sends again (a message with the same
 * clientMsgId is stored once).
 */
export class StompUnavailableError extends StompHandlerError {}

/**
 * A JSON body already serialised (a message that came over the cluster bus as text): sent as
 * application/json without parsing and stringifying it again.
 */
export class SerializedJson {
  constructor(readonly text: string) {}
}

export interface Publisher {
  /** Every subscriber of the destination receives a MESSAGE. */
  publish(destination: string, body: string | object): void;
  /**
   * Only the given user's sessions subscribed to the destination receive it, except the
   * connection named by exceptConnectionId (the one the news came from).
   */
  publishToUser(userId: number, destination: string, body: string | object, exceptConnectionId?: string): void;
  /** Ends the user's subscriptions to a destination at once (e.g. after leaving a room). */
  unsubscribeUser(userId: number, destination: string): void;
  /** Closes every socket opened with this login session (logout, expiry). */
  closeAuthSession(authSessionId: string): void;
  /** How many live STOMP connections the user has. */
  connectionCount(userId: number): number;
  /** Called when one of the user's connections is CONNECTed, with how many they now have. */
  onConnect(listener: (user: StompPrincipal, connections: number) => void): void;
  /** Called when one of the user's connections closes, with the connections left. */
  onDisconnect(listener: (user: StompPrincipal, remaining: number) => void): void;
  /**
   * Called when a connection's subscription starts, with a function that sends a MESSAGE to that
   * subscription alone (news the connection missed before it subscribed, e.g. a call still ringing).
   */
  onSubscribe(listener: (user: StompPrincipal, destination: string, deliver: (body: string | object) => void) => void): void;
}

/** A feature's contribution to the STOMP router. */
export interface StompFeature {
  handlers?: Record<string, AppHandler>;
  /** Return true to allow, false to deny, undefined when the destination is not this feature's. */
  authorize?: (user: StompPrincipal, destination: string) => Promise<boolean | undefined> | boolean | undefined;
}
