/** The notice wording in every language, for the server's mails (the web app loads one language at a time). */
import type { TLanguage } from '../constants';
import type { TNoticeTexts } from './render-notice-text';
import { NOTICE_TEXTS_EN } from './texts/en';
import { NOTICE_TEXTS_ZH } from './texts/zh';

export const NOTICE_TEXTS: Record<TLanguage, TNoticeTexts> = {
  en: NOTICE_TEXTS_EN,
  zh: NOTICE_TEXTS_ZH,
};
