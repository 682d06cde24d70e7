// The signed-in home's tabs, KakaoTalk's: 친구 (/friends), 채팅 (/chat-list, the spec's list) and
// 통화 (/calls, the call history). A nav named '홈'; the tab shown is marked aria-current="page".
import { Link, useLocation } from 'wouter';
import type { ReactNode } from 'react';
import { koHome } from '../i18n/koHome';
import { paths } from '../kernel/paths';

/** The tabs' line icons, drawn inline so they follow the tab's colour. */
function TabIcon({ children }: { children: ReactNode }) {
  return (
    <svg viewBox="0 0 24 24" width={22} height={22} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      {children}
    </svg>
  );
}
const PersonIcon = () => (
  <TabIcon>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21a8 8 0 0 1 16 0" />
  </TabIcon>
);
const ChatIcon = () => (
  <TabIcon>
    <path d="M21 11.5a8.4 8.4 0 0 1-9 8.4 9.5 9.5 0 0 1-3.9-.8L3 21l1.9-4.6A8 8 0 0 1 3 11.5 8.5 8.5 0 0 1 12 3a8.5 8.5 0 0 1 9 8.5z" />
  </TabIcon>
);
const PhoneLogIcon = () => (
  <TabIcon>
    <path d="M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1.9.4 1.8.7 2.7a2 2 0 0 1-.5 2.1L8 9.8a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.7.7a2 2 0 0 1 1.7 2z" />
  </TabIcon>
);

const TABS = [
  { to: paths.friends, label: koHome.tabs.friends, Icon: PersonIcon },
  { to: paths.chatList, label: koHome.tabs.chats, Icon: ChatIcon },
  { to: paths.calls, label: koHome.tabs.calls, Icon: PhoneLogIcon },
] as const;

export default function HomeTabs() {
  const [pathname] = useLocation();
  return (
    <nav className="home-tabs" aria-label={koHome.tabs.nav}>
      {TABS.map(({ to, label, Icon }) => (
        <Link key={to} to={to} className="home-tabs__tab" aria-current={pathname === to ? 'page' : undefined}>
          <Icon />
          <span>{label}</span>
        </Link>
      ))}
    </nav>
  );
}
