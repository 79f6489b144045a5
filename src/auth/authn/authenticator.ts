// Authentication, in Kubernetes' order: a client certificate the cluster CA signed (CN = user,
// O = groups), else a bearer token that one of the token authenticators knows (the static token
// file, service-account JWTs, join tokens), else nobody. Credentials that are present but wrong
// are a 401 even where an anonymous request would be let in: a typo must not look like success.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { UserInfo } from '../types.js';
import { takeWebSocketBearerToken } from './websocket-protocol.js';
import type { MaybePromise } from '../../util/maybe-promise.js';

export interface TokenAuthenticator {
  /**
   * The user a token stands for; undefined when this authenticator does not know it. `audiences`
   * (TokenReview's spec.audiences) narrows whom the token must be meant for; audience-free
   * tokens (static ones) ignore it.
   */
  authenticateToken(token: string, audiences?: readonly string[]): UserInfo | undefined | Promise<UserInfo | undefined>;
}

export class Unauthenticated extends Error {
  override name = 'Unauthenticated';
}

export const AUTHENTICATED_GROUP = 'system:authenticated';

export class RequestAuthenticator {
  /** A TLS connection's client certificate is checked once, not once per request on it. */
  private readonly byConnection = new WeakMap<object, UserInfo | null>();

  constructor(private readonly tokens: readonly TokenAuthenticator[]) {}

  /** This chain with more token authenticators after its own (the API server adds the service-account one: it needs the store). */
  withTokens(extra: readonly TokenAuthenticator[]): RequestAuthenticator {
    return extra.length === 0 ? this : new RequestAuthenticator([...this.tokens, ...extra]);
  }

  /** A bearer token's user through the chain, as TokenReview asks; undefined when none knows it. */
  async authenticateToken(token: string, audiences?: readonly string[]): Promise<UserInfo | undefined> {
    for (const authenticator of this.tokens) {
      const user = await authenticator.authenticateToken(token, audiences);
      if (user) return withAuthenticatedGroup(user);
    }
    return undefined;
  }

  /**
   * The user, or undefined for a request without credentials; throws (or rejects with)
   * Unauthenticated for bad ones. A client certificate is answered at once: every request pays
   * this, and only a bearer token may need to wait for the store.
   */
  authenticate(req: IncomingMessage): MaybePromise<UserInfo | undefined> {
    // A browser's WebSocket (the dashboard's terminal) carries its token in a sub-protocol. It
    // is taken out of the request whatever credential wins, so it never travels further (to an
    // agent) or comes back as the protocol chosen.
    let protocolToken: string | undefined;
    let protocolError: unknown;
    try {
      protocolToken = takeWebSocketBearerToken(req);
    } catch (error) {
      protocolError = error;
    }
    const fromCertificate = this.certificateUser(req.socket as TLSSocket);
    if (fromCertificate) return fromCertificate;
    const header = req.headers.authorization;
    if (header === undefined && protocolError) throw protocolError;
    const fromProtocol = header === undefined ? protocolToken : undefined;
    if (header === undefined && fromProtocol === undefined) {
      if (fromCertificate === null) throw new Unauthenticated('the client certificate is not signed by the cluster CA, or has expired');
      return undefined;
    }
    const token = fromProtocol ?? /^Bearer\s+(\S+)\s*$/i.exec(header!)?.[1];
    if (token === undefined) throw new Unauthenticated('only bearer tokens and client certificates are accepted');
    return this.authenticateToken(token).then((user) => {
      if (user) return user;
      throw new Unauthenticated('invalid bearer token');
    });
  }

  /** The certificate's user; null for a certificate that does not verify; undefined for none. */
  private certificateUser(socket: TLSSocket): UserInfo | null | undefined {
    if (typeof socket.getPeerCertificate !== 'function') return undefined;
    const known = this.byConnection.get(socket);
    if (known !== undefined) return known;
    const cert = socket.getPeerCertificate();
    if (!cert || Object.keys(cert).length === 0) return undefined;
    const user = socket.authorized ? withAuthenticatedGroup({ username: first(cert.subject?.CN), groups: list(cert.subject?.O) }) : null;
    this.byConnection.set(socket, user);
    return user;
  }
}

export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  return user.groups.includes(AUTHENTICATED_GROUP) ? user : { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
}

function first(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

function list(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
