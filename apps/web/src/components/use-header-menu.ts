/**
 * The open state of a header dropdown menu (user menu, team switcher): a click toggles it, and ArrowDown on its
 * button opens it with focus on the first enabled item (WAI-ARIA menu button).
 */
import type { KeyboardEvent } from 'react';
import { useEffect, useId, useState } from 'react';
import { focusWhenMounted } from './focus-when-mounted';

export function useHeaderMenu() {
  const [isOpen, setIsOpen] = useState(false);
  const [focusRequest, setFocusRequest] = useState(0);
  const menuId = useId();

  useEffect(() => {
    if (focusRequest === 0) return;
    return focusWhenMounted(() =>
      document
        .getElementById(menuId)
        ?.querySelector<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])'),
    );
  }, [focusRequest, menuId]);

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown') return;
    event.preventDefault();
    setIsOpen(true);
    setFocusRequest((n) => n + 1);
  };

  return { isOpen, setIsOpen, menuId, onButtonKeyDown };
}
