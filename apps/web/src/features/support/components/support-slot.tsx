/**
 * What the support feature adds to every dashboard page (the app shell's banner slot): the operator banner, the
 * support drawer and page-view tracking.
 */
import { usePageViewTracking } from '../../../lib/tracking';
import { OperatorBanner } from './operator-banner';
import { SupportDrawer } from './support-drawer';

export function SupportSlot() {
  usePageViewTracking();
  return (
    <>
      <OperatorBanner />
      <SupportDrawer />
    </>
  );
}
