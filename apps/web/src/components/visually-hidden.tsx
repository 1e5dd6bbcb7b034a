import type { CSSProperties, ReactNode } from 'react';

/** Off screen but read by screen readers. */
export const VISUALLY_HIDDEN_STYLE: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
};

export function VisuallyHidden({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <span id={id} style={VISUALLY_HIDDEN_STYLE}>
      {children}
    </span>
  );
}
