// The WebSocket's subprotocols, apart from the client and the contract: a page opens its socket with them before
// the rest of its script (the client, the contract's schemas) has run.

/**
 * The WebSocket subprotocols a browser offers: `baton.v1`, which the server selects, and the token. A page cannot set
 * headers on a WebSocket, and a token in the URL would reach logs and history; subprotocols are sent only to the
 * server the socket opens to. The token is base64url-encoded so that any BATON_TOKEN is a valid protocol name.
 */
export const WS_PROTOCOL = 'baton.v1';
export const WS_TOKEN_PREFIX = 'baton.token.';

export function tokenProtocols(token: string): string[] {
  const bytes = new TextEncoder().encode(token);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  const encoded = btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return [WS_PROTOCOL, `${WS_TOKEN_PREFIX}${encoded}`];
}
