// Placeholder until the page is built; the router imports this name.
export function EmailConfirmPage() {
  return null;
}
