// What Google's and Kakao's user-info endpoints say about a person, reduced to what we need.
// Pure functions: they only read JSON.
import type { OAuthProvider } from '@common/api';
import { LIMITS, isValidName, normalizeEmail, normalizeName } from '@common/rules';

export interface OAuthProfile {
  /** The provider's stable id for the person. */
  subject: string;
  email: string | null;
  /** True only when the provider says it checked the address. */
  emailVerified: boolean;
  name: string | null;
}

export class ProfileError extends Error {}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
// Some providers send booleans as strings.
const truthy = (v: unknown): boolean => v === true || v === 'true';

/** OIDC userinfo: {sub, email, email_verified, name}. */
export function googleProfile(body: unknown): OAuthProfile {
  if (!isObject(body)) throw new ProfileError('Google user info is not an object');
  const subject = str(body.sub);
  if (!subject) throw new ProfileError('Google user info has no sub');
  const email = str(body.email);
  return { subject, email: email && normalizeEmail(email), emailVerified: email !== null && truthy(body.email_verified), name: str(body.name) };
}

/** Kakao: {id, kakao_account: {email, is_email_verified, is_email_valid, profile: {nickname}}}. */
export function kakaoProfile(body: unknown): OAuthProfile {
  if (!isObject(body)) throw new ProfileError('Kakao user info is not an object');
  const id = body.id;
  if ((typeof id !== 'number' || !Number.isSafeInteger(id)) && !str(id)) throw new ProfileError('Kakao user info has no id');
  const account = isObject(body.kakao_account) ? body.kakao_account : {};
  const profile = isObject(account.profile) ? account.profile : {};
  const email = str(account.email);
  return {
    subject: String(id),
    email: email && normalizeEmail(email),
    emailVerified: email !== null && truthy(account.is_email_verified) && truthy(account.is_email_valid),
    name: str(profile.nickname),
  };
}

export const PROFILE_READERS: Record<OAuthProvider, (body: unknown) => OAuthProfile> = {
  google: googleProfile,
  kakao: kakaoProfile,
};

const DISALLOWED = /[^A-Za-z\u3131-\u318E\uAC00-\uD7A3\s\-.']/g;

function cleaned(raw: string): string {
  return raw.replace(DISALLOWED, '').replace(/\s+/g, ' ').trim().slice(0, LIMITS.name).trim();
}

/**
 * A display name that obeys our name rule (docs/spec.md §5), from what the provider knows: its
 * name with disallowed characters removed, else the address's local part, else "User".
 */
export function displayName(profile: Pick<OAuthProfile, 'name' | 'email'>): string {
  for (const candidate of [profile.name, profile.email?.split('@')[0]]) {
    if (!candidate) continue;
    const name = normalizeName(cleaned(candidate));
    if (isValidName(name)) return name;
  }
  return 'User';
}
