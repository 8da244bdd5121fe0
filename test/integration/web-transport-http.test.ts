// The web transport of a real `baton serve`: the dashboard's files open to our own address without a token (and no
// cookie ever), the token on the WebSocket upgrade (a Bearer header or the page's subprotocol), foreign Origin and Host
// refused (DNS rebinding).
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { tokenProtocols, WS_PROTOCOL } from '../../shared/client.js';
import { get, upgrade, server, useWebServer } from './web-transport-helpers.js';

useWebServer();

describe('HTTP: the dashboard, open to our own address, never a cookie', () => {
  it('GET / without a token is 200: the files hold no secret, and no cookie is set', async () => {
    const res = await get(server, '/');
    expect(res.status).toBe(200);
    expect(res.body).toMatch(/<html/i);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body.includes(server.token)).toBe(false);
  });

  it('a token in the query, a header or a cookie changes nothing and sets no cookie', async () => {
    const wrong = `${server.token.slice(0, -1)}${server.token.endsWith('A') ? 'B' : 'A'}`;
    for (const [path, headers] of [
      [`/?token=${server.token}`, {}],
      [`/?token=${wrong}`, {}],
      ['/', { Authorization: `Bearer ${wrong}` }],
      ['/', { Cookie: `baton_token=${encodeURIComponent(server.token)}` }],
    ] as const) {
      const res = await get(server, path, headers);
      expect(res.status, path).toBe(200);
      expect(res.headers['set-cookie'], path).toBeUndefined();
    }
  });

  it('a foreign Origin is 403', async () => {
    const res = await get(server, '/', { Origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    // Lookalikes of our own origin are foreign too; our own origin is let in.
    const { port } = new URL(server.url);
    for (const origin of [
      'null',
      `https://127.0.0.1:${port}`,
      `http://127.0.0.1.evil.example:${port}`,
      `http://127.0.0.1:${Number(port) + 1}`,
    ]) {
      expect((await get(server, '/', { Origin: origin })).status, origin).toBe(403);
    }
    expect((await get(server, '/', { Origin: server.url })).status).toBe(200);
  });

  it('a foreign Host (DNS rebinding) is 403', async () => {
    const { port } = new URL(server.url);
    expect((await get(server, '/', { Host: `evil.example:${port}` })).status).toBe(403);
    // Sanity: the same request naming the bound address is let in.
    expect((await get(server, '/', { Host: `127.0.0.1:${port}` })).status).toBe(200);
    expect((await get(server, '/', { Host: `localhost:${port}` })).status).toBe(200);
  });

  it('/ws without an upgrade is 426', async () => {
    expect((await get(server, '/ws')).status).toBe(426);
  });
});

describe('WebSocket upgrade to /ws behind the token', () => {
  it('no token: refused with 401', async () => {
    expect(await upgrade(server, '')).toEqual({ kind: 'refused', status: 401 });
  });

  it('wrong token (bearer or subprotocol): refused with 401', async () => {
    const wrong = 'not-the-token-at-all-0123456789';
    expect(await upgrade(server, '', { Authorization: `Bearer ${wrong}` })).toEqual({ kind: 'refused', status: 401 });
    expect(await upgrade(server, '', {}, tokenProtocols(wrong))).toEqual({ kind: 'refused', status: 401 });
  });

  it('the right token in the query or a cookie is not accepted: 401', async () => {
    expect(await upgrade(server, `?token=${server.token}`)).toEqual({ kind: 'refused', status: 401 });
    expect(await upgrade(server, '', { Cookie: `baton_token=${encodeURIComponent(server.token)}` })).toEqual({
      kind: 'refused',
      status: 401,
    });
  });

  it('right token as a Bearer header (CLI) or as the page subprotocol: open; the server selects baton.v1, never the token', async () => {
    const bearer = await upgrade(server, '', { Authorization: `Bearer ${server.token}` });
    expect(bearer.kind).toBe('open');
    if (bearer.kind === 'open') bearer.ws.close();
    const page = await upgrade(server, '', { Origin: server.url }, tokenProtocols(server.token));
    expect(page.kind).toBe('open');
    if (page.kind === 'open') {
      expect(page.ws.protocol).toBe(WS_PROTOCOL);
      page.ws.close();
    }
  });

  it('foreign Origin with the right token: refused with 403', async () => {
    expect(await upgrade(server, '', { Origin: 'http://evil.example' }, tokenProtocols(server.token))).toEqual({
      kind: 'refused',
      status: 403,
    });
  });

  it('foreign Host with the right token: refused with 403', async () => {
    const { port } = new URL(server.url);
    expect(
      await upgrade(server, '', { Host: `evil.example:${port}`, Authorization: `Bearer ${server.token}` }),
    ).toEqual({ kind: 'refused', status: 403 });
  });

  it('a path other than /ws is not upgraded', async () => {
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/other`, {
      headers: { Authorization: `Bearer ${server.token}` },
    });
    const outcome = await new Promise<string>((resolve) => {
      ws.once('open', () => resolve('open'));
      ws.once('unexpected-response', (_req, res) => resolve(`refused ${res.statusCode}`));
      ws.once('error', () => resolve('error'));
    });
    ws.terminate();
    expect(outcome).toBe('refused 404');
  });
});
