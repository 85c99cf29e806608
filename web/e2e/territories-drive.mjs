// Plays a Territories game of two people over HTTP until the first seat (the browser's) has to pay
// for Survey or Expand a resource at a time from two suits or more (the server rolls every die):
// each decision a plain, fixed preference — the first seat works towards a Fort or a Palace (the
// buildings that allow Survey and Expand) and two territory cards and uses them, the second builds
// nothing and ends its turns.

/** `api`: the helpers of gesture-api.mjs. Returns the game once the first seat's decision is that
 * payment; a game that ends first (the first seat may win on points before) is followed by a new
 * one, `tries` games in all; `null` if none came to it. */
export async function territoriesToPayment(api, tries = 4) {
  for (let i = 0; i < tries; i++) {
    const g = await oneGame(api);
    if (g) return g;
  }
  return null;
}

async function oneGame({ forTwo, snapOf, act }, limit = 900) {
  const g = await forTwo('territories');
  const pick = (s, mine, k) => {
    const n = (re) => s.legal.find((a) => re.test(a.notation));
    if (!mine) return n(/^end$/) ?? n(/^decline$/) ?? s.legal[0];
    const held = s.view.hands[0].resources ?? [0, 0, 0, 0];
    // The Fort (4♦) or Palace (4♠): trade the suit held most for the one it lacks.
    const most = ['H', 'S', 'C', 'D'][held.indexOf(Math.max(...held))];
    const want = held[3] >= held[1] ? 'D' : 'S';
    // Two territory cards at least, so that the card to place is a choice (one will do if the
    // bank's cards were long out of reach).
    const cards = s.view.hands[0].territories?.length ?? 0;
    const able = s.view.buildings.some((b) => b.owner === 0 && ['fort', 'palace'].includes(b.piece));
    return (able && cards < 2 ? n(new RegExp(`^bank ${most}>territory$`)) : null)
      ?? (cards >= 2 || k > limit / 3 ? n(/^use (survey|expand)$/) : null) ?? n(/^upgrade \S+ (fort|palace)$/)
      ?? (most !== want ? n(new RegExp(`^bank ${most}>${want}$`)) : null)
      ?? n(/^(survey|expand) /) ?? n(/^end$/) ?? n(/^decline$/) ?? s.legal[0];
  };
  for (let k = 0; k < limit; k++) {
    const s0 = await snapOf(g.id, g.seats[0]);
    if (s0.view.phase.phase === 'over') return null;
    if (s0.view.phase.phase === 'pay' && s0.legal.filter((a) => /^pay /.test(a.notation)).length >= 2 && s0.view.phase.left >= 2) return g;
    const mine = s0.legal.length > 0;
    const s = mine ? s0 : await snapOf(g.id, g.seats[1]);
    if (!s.legal.length) continue; // chance (the server rolls at once)
    await act(g.id, mine ? g.seats[0] : g.seats[1], pick(s, mine, k).notation);
  }
  return null;
}
