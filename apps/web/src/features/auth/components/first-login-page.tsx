// Placeholder until the page is built; the router imports this name.
export function FirstLoginPage() {
  return null;
}
