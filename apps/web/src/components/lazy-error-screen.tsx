/**
 * The error screen, loaded when an error is shown: antd's Result and its illustrations (and antd's providers around
 * them) are not code every page needs. If its chunk cannot load (the network is down, a deploy removed it), a plain
 * screen says the same.
 */
import type { ComponentType } from 'react';
import { Suspense, lazy } from 'react';
import { useTranslation } from 'react-i18next';
import type { TErrorScreenProps } from './error-screen';

function PlainErrorScreen({ message, notFoundPath, onBack }: TErrorScreenProps) {
  const { t } = useTranslation('errors');
  const subTitle =
    notFoundPath !== undefined ? t('notFound.subtitle', { path: notFoundPath }) : message;
  return (
    <div style={{ textAlign: 'center', padding: 48 }}>
      <h1 style={{ fontSize: 24, margin: 0 }}>{t('notFound.title')}</h1>
      {subTitle && <p>{subTitle}</p>}
      <button type="button" onClick={onBack}>
        {t('notFound.back')}
      </button>
    </div>
  );
}

const Screen = lazy((): Promise<{ default: ComponentType<TErrorScreenProps> }> =>
  Promise.all([import('./error-screen'), import('./antd-scope')]).then(
    ([{ ErrorScreen }, { AntdScope }]) => ({
      default: (props: TErrorScreenProps) => (
        <AntdScope>
          <ErrorScreen {...props} />
        </AntdScope>
      ),
    }),
    () => ({ default: PlainErrorScreen }),
  ),
);

export function LazyErrorScreen(props: TErrorScreenProps) {
  return (
    <Suspense fallback={null}>
      <Screen {...props} />
    </Suspense>
  );
}
