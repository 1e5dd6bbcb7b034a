/**
 * The language switch of the public pages: the same button as LanguageSwitch ("Language" / "语言") opening a menu
 * of "English" and "中文", written by hand (components/ui/) so the sign-in page loads no antd. A menu button as the
 * WAI-ARIA practices describe it: arrows move, Escape closes and returns focus.
 */
import type { TLanguage } from '@rpc/contract';
import { LANGUAGES } from '@rpc/contract';
import type { KeyboardEvent } from 'react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../lib/i18n';
import { Button } from './ui/button';
import { CheckIcon, GlobeIcon } from './ui/icons';

export function PlainLanguageSwitch() {
  const { t } = useTranslation('layout');
  const { lang, setLang } = useLocale();
  const [isOpen, setIsOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);

  // Opening focuses the current language; a press outside closes.
  useEffect(() => {
    if (!isOpen) return;
    itemRefs.current[Math.max(0, LANGUAGES.indexOf(lang))]?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setIsOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [isOpen, lang]);

  const close = () => {
    setIsOpen(false);
    buttonRef.current?.focus();
  };

  const onChoose = (code: TLanguage) => {
    close();
    void setLang(code);
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const items = itemRefs.current.filter((item): item is HTMLButtonElement => item !== null);
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    const focusAt = (i: number) => items[(i + items.length) % items.length]?.focus();
    if (event.key === 'ArrowDown') focusAt(index + 1);
    else if (event.key === 'ArrowUp') focusAt(index - 1);
    else if (event.key === 'Home') focusAt(0);
    else if (event.key === 'End') focusAt(items.length - 1);
    else if (event.key === 'Escape') close();
    else if (event.key === 'Tab') setIsOpen(false);
    else return;
    if (event.key !== 'Tab') event.preventDefault();
  };

  return (
    <div ref={rootRef} style={{ position: 'relative' }}>
      <Button
        ref={buttonRef}
        variant="text"
        icon={<GlobeIcon />}
        aria-label={t('language.label')}
        title={t('language.label')}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={isOpen ? menuId : undefined}
        onClick={() => setIsOpen((open) => !open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setIsOpen(true);
          }
        }}
      >
        <span aria-hidden>{lang.toUpperCase()}</span>
      </Button>
      {isOpen && (
        <ul
          id={menuId}
          role="menu"
          aria-label={t('language.label')}
          onKeyDown={onMenuKeyDown}
          style={{
            position: 'absolute',
            insetInlineEnd: 0,
            top: '100%',
            zIndex: 'calc(var(--z-index-popup-base) + 50)',
            minWidth: 120,
            margin: '4px 0 0',
            padding: 4,
            listStyle: 'none',
            background: 'var(--color-bg-container)',
            borderRadius: 'var(--border-radius-lg)',
            boxShadow: 'var(--box-shadow-secondary)',
          }}
        >
          {LANGUAGES.map((code, i) => (
            <li key={code} role="none">
              <button
                ref={(element) => {
                  itemRefs.current[i] = element;
                }}
                type="button"
                role="menuitemradio"
                aria-checked={code === lang}
                tabIndex={-1}
                lang={code === 'zh' ? 'zh-CN' : 'en'}
                className="plain-language-switch-item"
                onClick={() => onChoose(code)}
                style={{
                  display: 'flex',
                  alignItems: 'center',
                  gap: 8,
                  width: '100%',
                  padding: '5px 12px',
                  border: 0,
                  borderRadius: 'var(--border-radius-sm)',
                  background: code === lang ? 'var(--control-item-bg-active)' : 'transparent',
                  color: 'var(--color-text)',
                  font: 'inherit',
                  textAlign: 'start',
                  cursor: 'pointer',
                }}
              >
                {code === lang ? <CheckIcon /> : <span aria-hidden style={{ width: 14 }} />}
                {t(`language.${code}`)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
