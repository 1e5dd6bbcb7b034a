/**
 * Support in a drawer over any dashboard page, opened by `?support=open` (the user menu's "Contact support" sets
 * it, so the menu needs no import from this feature and the drawer can be linked to). Closing removes the param.
 */
import { Drawer, Tabs } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { trackEvent } from '../../../lib/tracking';
import { SupportTicketForm } from './support-ticket-form';
import { SupportTicketsList } from './support-tickets-list';

export const SUPPORT_PARAM = 'support';

export function SupportDrawer() {
  const { t } = useTranslation('support');
  const [params, setParams] = useSearchParams();
  const isOpen = params.get(SUPPORT_PARAM) !== null;
  const tab = params.get(SUPPORT_PARAM) === 'tickets' ? 'tickets' : 'new';

  useEffect(() => {
    if (isOpen) trackEvent('support.open');
  }, [isOpen]);

  const setTab = (key: string) =>
    setParams(
      (p) => {
        p.set(SUPPORT_PARAM, key === 'tickets' ? 'tickets' : 'open');
        return p;
      },
      { replace: true },
    );

  return (
    <Drawer
      open={isOpen}
      onClose={() =>
        setParams(
          (p) => {
            p.delete(SUPPORT_PARAM);
            return p;
          },
          { replace: true },
        )
      }
      title={t('drawer.title')}
      width={560}
      destroyOnHidden
    >
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'new', label: t('tabs.new'), children: <SupportTicketForm isOpen={isOpen} /> },
          {
            key: 'tickets',
            label: t('tabs.tickets'),
            children: <SupportTicketsList isOpen={isOpen && tab === 'tickets'} />,
          },
        ]}
      />
    </Drawer>
  );
}
