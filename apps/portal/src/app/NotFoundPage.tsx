import { PageHeader } from '../shared/layout';
import { Link } from '../shared/router';
import { DEFAULT_PATH } from './routes';

export function NotFoundPage({ path }: { path: string }) {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is no portal page at <code>{path}</code>. <Link to={DEFAULT_PATH}>Go to the API status</Link>.
      </p>
    </>
  );
}
