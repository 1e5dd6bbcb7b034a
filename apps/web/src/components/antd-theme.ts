/**
 * Ant Design theme: antd's default colours with the few tokens changed that fail WCAG 2.2 AA contrast
 * (4.5:1 for normal text) on the console's light backgrounds. theme.test.ts checks every pair.
 */
import type { ThemeConfig } from 'antd';

/** Text shades that reach 4.5:1 on antd's pale status backgrounds (#f6ffed, #fffbe6, #e6f4ff). */
const SUCCESS_TEXT = '#237804';
const WARNING_TEXT = '#ad4e00';
/** antd blue-7: 6.16:1 under white text, 5.50:1 on the pale blue of selected rows and info tags. */
const PRIMARY = '#0958d9';
/** Lighter than PRIMARY for hover, still 5.40:1 (the derived #2e7ae6 and #579df2 gave 4.16:1 and 2.80:1). */
const PRIMARY_HOVER = '#1765d8';
/** Secondary grey: 0.45 black gave 3.35:1; 0.58 gives 5.32:1 on white and 5.20:1 on #f5f5f5. */
const SECONDARY_TEXT = 'rgba(0, 0, 0, 0.58)';

/**
 * The console's button settings (antd-scope.tsx's ConfigProvider; antd-static-styles.ts renders under the same):
 * autoInsertSpace off, since antd would render "登录" as "登 录", which breaks its accessible name.
 */
export const BUTTON_CONFIG = { autoInsertSpace: false } as const;

export const THEME: ThemeConfig = {
  token: {
    // White on the primary button, primary text and links: #1677ff gave 4.10:1.
    colorPrimary: PRIMARY,
    colorPrimaryHover: PRIMARY_HOVER,
    colorPrimaryTextHover: PRIMARY_HOVER,
    // Links follow colorInfo (#1677ff) unless set.
    colorLink: PRIMARY,
    colorLinkHover: PRIMARY_HOVER,
    // White on the count badge and danger buttons, and error text: #ff4d4f gave 3.27:1; antd red-7 gives 5.57:1.
    colorError: '#cf1322',
    colorTextDescription: SECONDARY_TEXT,
    colorTextTertiary: SECONDARY_TEXT,
    // Success and warning text (Typography type="success" / "warning"): #52c41a 2.27:1, #faad14 1.90:1.
    colorSuccessText: SUCCESS_TEXT,
    colorWarningText: WARNING_TEXT,
  },
  components: {
    // Status tags colour their text with the status colour itself (#52c41a on #f6ffed is 2.20:1).
    Tag: { colorSuccess: SUCCESS_TEXT, colorWarning: WARNING_TEXT, colorInfo: PRIMARY },
    // An empty table says so in the disabled grey (#bfbfbf, 1.83:1); it is information, not a disabled control.
    Table: { colorTextDisabled: SECONDARY_TEXT },
    // Links inside running text are told apart by more than colour (WCAG 1.4.1; link blue on body text is 2.67:1).
    Typography: {
      linkDecoration: 'underline',
      linkHoverDecoration: 'underline',
      linkFocusDecoration: 'underline',
    },
  },
};
