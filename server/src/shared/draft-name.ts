/** A name drafted from the first words of a text (at most 8 words, 80 characters). */
export function draftName(text: string, fallback: string): string {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').slice(0, 8).join(' ').replace(/[.,;:!?]+$/, '');
  return (words.length > 80 ? `${words.slice(0, 79)}…` : words) || fallback;
}
