/**
 * Focuses the element `find` returns once it is in the page: popups render a frame or two after they open.
 * Gives up after about 20 frames; returns a cancel function for effect clean-ups.
 */
export function focusWhenMounted(find: () => HTMLElement | null | undefined): () => void {
  let frame = 0;
  let tries = 0;
  const attempt = () => {
    const element = find();
    if (element) element.focus();
    else if (tries++ < 20) frame = requestAnimationFrame(attempt);
  };
  frame = requestAnimationFrame(attempt);
  return () => cancelAnimationFrame(frame);
}
