/**
 * What a payment attempt that was refused or lost means, in place: too little balance leads to the top-up page, a
 * changed price asks again, a lost answer says paying again is safe, and card payments may be unavailable here. A
 * card order that was answered says how it ended in its own progress region (lib/card-order).
 */
import { Alert } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import type { TPaymentFailure } from '../utils/payment-attempt';

export function PaymentAlerts({
  failure,
  unknownExtra,
}: {
  failure: TPaymentFailure | null;
  /** beside the lost-answer warning: a way to look at the nodes */
  unknownExtra?: ReactNode;
}) {
  const { t } = useTranslation('dedicated-node');
  switch (failure) {
    case 'insufficient':
      return (
        <Alert
          type="warning"
          showIcon
          message={t('pay.insufficient')}
          action={
            <LinkButton to="/rpc/billings/charge" size="small" type="primary">
              {t('pay.topUp')}
            </LinkButton>
          }
        />
      );
    case 'priceChanged':
      return <Alert type="warning" showIcon message={t('pay.priceChanged')} />;
    case 'unknown':
      return <Alert type="warning" showIcon message={t('pay.unknown')} action={unknownExtra} />;
    case 'cardUnavailable':
      return <Alert type="info" showIcon message={t('pay.cardUnavailable')} />;
    case 'cardRequired':
      return (
        <Alert
          type="info"
          showIcon
          message={t('pay.noCard')}
          action={
            <LinkButton to="/rpc/billings" size="small">
              {t('pay.addCard')}
            </LinkButton>
          }
        />
      );
    case 'notProvisionable':
      return <Alert type="error" showIcon message={t('pay.notProvisionable')} />;
    case 'notRenewable':
      return <Alert type="error" showIcon message={t('pay.notRenewable')} />;
    default:
      // No failure, or one the request client has shown already.
      return null;
  }
}
