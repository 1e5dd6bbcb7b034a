import { useLocation } from 'react-router';
import { ErrorScreen } from '../../components/error-screen';
import { useLocalizedNavigate } from '../../lib/locale-path';

/** /404 and the catch-all: SPEC §8 'Page Not Found: {path}'. */
export function NotFoundPage() {
  const location = useLocation();
  const navigate = useLocalizedNavigate();
  return (
    <ErrorScreen
      status={404}
      notFoundPath={`${location.pathname}${location.search}${location.hash}`}
      onBack={() => navigate('/')}
    />
  );
}
