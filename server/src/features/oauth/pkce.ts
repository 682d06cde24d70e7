// PKCE (RFC 7636) with S256: the verifier stays on the server, the provider sees its digest.
import crypto from 'node:crypto';

export function codeChallengeS256(verifier: string): string {
  return crypto.createHash('sha256').update(verifier).digest('base64url');
}
