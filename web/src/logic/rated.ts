// Rated games in the create form (docs/protocol.md, Ratings): when a game may be rated, and the
// optional range of ratings of the players who may join it.

/** Why this game cannot be rated, or null when it can: a rated game needs a signed-in creator holding
 * exactly one seat, no AI seat, and every other seat for another player (by link or from the lobby).
 * `choices` are the seats' choices of the form ('me', 'friend', 'open', 'ai<level>'). */
export function ratedBlock(signedIn: boolean, choices: string[]): string | null {
  if (!signedIn) return 'Sign in to play rated games.';
  if (choices.some((c) => c.startsWith('ai'))) return 'AI seats are never rated: seat people only.';
  const mine = choices.filter((c) => c === 'me').length;
  if (mine === 0) return 'Take one seat yourself to play a rated game.';
  if (mine > 1) return 'A rated game is not played hot-seat: take one seat, the others are other players.';
  if (choices.length < 2) return 'A rated game needs another player.';
  return null;
}

export type RangeResult = { ok: true; value: { min: number; max: number } | null } | { ok: false; error: string };

/** The rating range from the form's two fields: none when both are empty; one empty field is open-ended. */
export function ratingRange(minText: string, maxText: string): RangeResult {
  const a = minText.trim();
  const b = maxText.trim();
  if (!a && !b) return { ok: true, value: null };
  const min = a ? Number(a) : 0;
  const max = b ? Number(b) : 5000;
  if (!Number.isFinite(min) || !Number.isFinite(max)) return { ok: false, error: 'The rating range takes numbers.' };
  if (min > max) return { ok: false, error: `The rating range is empty: ${min} is above ${max}.` };
  return { ok: true, value: { min, max } };
}
