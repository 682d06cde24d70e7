// Placeholder until its feature lands; that feature's engineer replaces this file.
import { ko } from '../../i18n/ko';

export default function ChatListPage() {
  return <main className="centered"><p className="card">{ko.placeholder.comingSoon}</p></main>;
}
