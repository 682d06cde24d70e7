import { ko } from '../../i18n/ko';
import type { StatusTone } from '../../components/StatusLine';
import type { LoginStatus } from './authSlice';

/** The words and tone of the login status line (docs/spec.md §4, §8). */
export function describeLoginStatus(status: LoginStatus): { text: string; tone: StatusTone } {
  switch (status.kind) {
    case 'idle':
      return { text: '', tone: 'neutral' };
    case 'loggingIn':
      return { text: ko.login.loggingIn, tone: 'neutral' };
    case 'welcome':
      return { text: ko.login.welcomeUser(status.name), tone: 'success' };
    case 'mismatch':
      return { text: ko.login.mismatch, tone: 'error' };
    case 'incomplete':
      return { text: ko.login.incomplete, tone: 'error' };
    case 'oauthError':
      return { text: status.provider === 'google' ? ko.login.googleError : ko.login.kakaoError, tone: 'error' };
  }
}
