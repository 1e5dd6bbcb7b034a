import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useRouteError } from 'react-router';
import { LazyErrorScreen } from '../../components/lazy-error-screen';
import { DefaultLayout } from '../../components/layouts/default-layout';
import { guardedReload, isChunkLoadError } from '../../lib/build-check';
import { langFromPath, localePath } from '../../lib/locale-path';

/**
 * Error boundary of the router (SPEC §4: a fatal error shows the error screen). A chunk that no longer
 * exists after a deploy reloads the page instead, at most once per path within the reload guard.
 */
export function RouteErrorScreen() {
  const error = useRouteError();
  const { t } = useTranslation('errors');
  const location = useLocation();
  const navigate = useNavigate();
  const fullPath = `${location.pathname}${location.search}${location.hash}`;
  const [isReloading] = useState(
    () =>
      isChunkLoadError(error) && guardedReload(fullPath, (path) => window.location.assign(path)),
  );

  useEffect(() => {
    if (!isReloading) console.error('Unhandled error while rendering', error);
  }, [error, isReloading]);

  if (isReloading) return null;
  return (
    <DefaultLayout>
      <LazyErrorScreen
        status={500}
        message={t('unexpected')}
        onBack={() => void navigate(localePath('/', langFromPath(location.pathname)))}
      />
    </DefaultLayout>
  );
}
