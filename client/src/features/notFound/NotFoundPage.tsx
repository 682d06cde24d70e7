import { Link } from 'wouter';
import { CenteredPage } from '../../components/CenteredPage';
import { ko } from '../../i18n/ko';

export default function NotFoundPage() {
  return (
    <CenteredPage title={ko.notFound.title}>
      <div className="not-found">
        <p className="not-found__code" aria-hidden="true">
          {ko.notFound.code}
        </p>
        <h1 className="card__title">{ko.notFound.title}</h1>
        <p className="card__subtitle">{ko.notFound.description}</p>
        <Link className="btn btn--primary btn--block" to="/chat-list">
          {ko.notFound.back}
        </Link>
      </div>
    </CenteredPage>
  );
}
