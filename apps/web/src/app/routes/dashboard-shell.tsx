/**
 * The dashboard layout with its banners, in a chunk of its own: AppShell loads it for dashboard routes only, so
 * the sign-in pages skip the sidebar, notices, team switcher and support code, and antd's providers.
 */
import type { ReactNode } from 'react';
import { AntdScope } from '../../components/antd-scope';
import { DashboardLayout } from '../../components/layouts/dashboard-layout';
import { TopUpReminder } from '../../features/billing/components/top-up-reminder';
import { SupportSlot } from '../../features/support/components/support-slot';

export function DashboardShell({ children }: { children: ReactNode }) {
  return (
    <AntdScope>
      <DashboardLayout
        banner={
          <>
            <SupportSlot />
            <TopUpReminder />
          </>
        }
      >
        {children}
      </DashboardLayout>
    </AntdScope>
  );
}
