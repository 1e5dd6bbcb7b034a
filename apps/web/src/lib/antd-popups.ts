/**
 * antd's static popups (message, notification, Modal), loaded by lib/popups.ts when the first popup opens or a
 * page that uses antd loads: the sign-in page does not carry them until it has something to say.
 */
import './antd-react19';
// Imported, then exported: the build's chunk grouping follows imports by name (apps/web/chunk-groups.ts).
import { Modal, message, notification } from 'antd';
import { startIconLabelsOnce } from './i18n-icons';

export { Modal, message, notification };

// The popups' icons carry English names as labels: hidden or translated like every other antd icon.
startIconLabelsOnce();
