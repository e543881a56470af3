// The server's API (/api/openapi.json): JSON requests with the seat's token, and WebSockets.
import { S } from './store.js';

// A request; a refusal throws an Error carrying the API's reason, point and colour.
export async function api(method, path, body, raw) {
  const headers = {};
  if (body !== undefined && !raw) headers['content-type'] = 'application/json';
  // A seat held by the account has no token: the login's cookie acts for it.
  if (S.seat?.token && path.startsWith(`/api/games/${S.gameId}/`)) headers.authorization = `Bearer ${S.seat.token}`;
  const response = await fetch(path, { method, headers, body: raw ? body : body === undefined ? undefined : JSON.stringify(body) });
  const json = await response.json().catch(() => null);
  if (!response.ok) {
    const e = new Error(json?.detail || response.statusText);
    Object.assign(e, { reason: json?.reason, point: json?.point, color: json?.color, number: json?.number, cause: json?.cause });
    throw e;
  }
  return json;
}

// A WebSocket of this server (`path` from `/api/`).
export const socketTo = (path) => new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`);
