// The two HTTP calls of the authorisation-code flow: code → access token, token → user info.
import type { OAuthClientConfig } from '../../config';

const TIMEOUT_MS = 10_000;

export class ProviderError extends Error {}

async function readJson(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  if (!res.ok) throw new ProviderError(`${what} answered ${res.status}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderError(`${what} answered something other than JSON`);
  }
}

export async function exchangeCode(client: OAuthClientConfig, code: string, codeVerifier: string, redirectUri: string): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: client.clientId, code_verifier: codeVerifier });
  if (client.clientSecret) form.set('client_secret', client.clientSecret);
  const res = await fetch(client.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8', accept: 'application/json' },
    body: form,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const body = (await readJson(res, 'token endpoint')) as { access_token?: unknown };
  if (typeof body.access_token !== 'string' || body.access_token === '') throw new ProviderError('token endpoint gave no access_token');
  return body.access_token;
}

export async function fetchUserInfo(client: OAuthClientConfig, accessToken: string): Promise<unknown> {
  const res = await fetch(client.userInfoUrl, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return readJson(res, 'user-info endpoint');
}
