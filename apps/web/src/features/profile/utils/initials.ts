/** What stands in for a missing avatar: the first letters of the first two words of the name (one for CJK names). */
export function initialsOf(name: string): string {
  const words = name
    .trim()
    .split(/[\s@._-]+/)
    .filter(Boolean);
  const first = Array.from(words[0] ?? '');
  if (first.length === 0) return '?';
  // A CJK name is one word: its first character is the usual stand-in.
  if (
    /^\p{Script=Han}|^\p{Script=Hangul}|^\p{Script=Hiragana}|^\p{Script=Katakana}/u.test(first[0]!)
  )
    return first[0]!;
  const second = Array.from(words[1] ?? '');
  return (first[0]! + (second[0] ?? '')).toUpperCase();
}
