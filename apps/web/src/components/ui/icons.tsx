/**
 * The few icons the plain pages draw (components/ui/), as small stroked SVGs: @ant-design/icons would bring its
 * context and CSS-in-JS code to the sign-in page. Decorative: hidden from assistive technology, the control names
 * itself.
 */
import type { ReactNode } from 'react';

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      className="ui-icon"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const GlobeIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="9.5" />
    <path d="M2.5 12h19M12 2.5c2.6 2.6 3.9 5.8 3.9 9.5s-1.3 6.9-3.9 9.5c-2.6-2.6-3.9-5.8-3.9-9.5S9.4 5.1 12 2.5z" />
  </Icon>
);

export const CheckIcon = () => (
  <Icon>
    <path d="M4.5 12.5l5 5 10-11" />
  </Icon>
);

export const EyeIcon = () => (
  <Icon>
    <path d="M1.5 12S5.5 5 12 5s10.5 7 10.5 7-4 7-10.5 7S1.5 12 1.5 12z" />
    <circle cx="12" cy="12" r="3" />
  </Icon>
);

export const EyeOffIcon = () => (
  <Icon>
    <path d="M10 5.2A9.9 9.9 0 0112 5c6.5 0 10.5 7 10.5 7a17 17 0 01-2.7 3.4M6.3 6.4C3.3 8.3 1.5 12 1.5 12s4 7 10.5 7c1.9 0 3.6-.6 5-1.5M9.9 9.9a3 3 0 004.2 4.2M2.5 2.5l19 19" />
  </Icon>
);

export const WalletIcon = () => (
  <Icon>
    <path d="M20 7V5.5A1.5 1.5 0 0018.5 4h-14A1.5 1.5 0 003 5.5v13A1.5 1.5 0 004.5 20h14a1.5 1.5 0 001.5-1.5V17" />
    <path d="M21 8h-6a4 4 0 000 8h6z" />
    <circle cx="15.5" cy="12" r=".5" />
  </Icon>
);

export const SignInIcon = () => (
  <Icon>
    <path d="M14 3h5a2 2 0 012 2v14a2 2 0 01-2 2h-5M10 17l5-5-5-5M15 12H3" />
  </Icon>
);

export const InfoIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="9.5" />
    <path d="M12 11v6M12 7.5v.01" />
  </Icon>
);

export const WarningIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="9.5" />
    <path d="M12 7v6M12 16.5v.01" />
  </Icon>
);

export const ErrorIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="9.5" />
    <path d="M15 9l-6 6M9 9l6 6" />
  </Icon>
);
