// Plain-language hints shown next to a notation when the player must choose between actions that name
// the same cells (Kyo slices and shuffles, Cyvasse shots, Territories upgrades). The notation stays the
// label; the hint only explains it ('' when there is nothing to add). Each game's hint is registered
// with the game in `games/register.ts`; `choiceHint` in `games/index.ts` picks it.

export function kyoHint(notation: string): string {
  const left = /^[A-J]\d\/(\d+)/.exec(notation);
  if (left) return `leave ${left[1]} chip${left[1] === '1' ? '' : 's'} behind`;
  const alone = /^[A-J]\d\((\d+)\)-/.exec(notation);
  if (alone) return `move ${alone[1]} chip${alone[1] === '1' ? '' : 's'} without the pawn`;
  const deploy = /^[A-J]\d(?:\((\d+)\))?\*/.exec(notation);
  if (deploy) return `deploy ${deploy[1] ?? '1'} Shield${deploy[1] && deploy[1] !== '1' ? 's' : ''}`;
  const shuffle = /~([DLSdls]+)$/.exec(notation);
  if (shuffle) return `reorder the chips to ${shuffle[1]} (bottom to top)`;
  const carry = /^[A-J]\d\+(\d+)/.exec(notation);
  if (carry) return `carry ${carry[1]} chips`;
  if (/^[A-J]\d>/.test(notation)) return 'Mana move: the whole slice (you may go on)';
  if (/^[A-J]\dx/.test(notation)) return 'capture';
  if (/^[A-J]\d-/.test(notation)) return 'direct move: the whole slice';
  return '';
}

export function cyvasseHint(notation: string): string {
  if (/^[a-k]\d+\*/.test(notation)) return 'shoot without moving';
  if (/^[a-k]\d+x/.test(notation)) return 'capture by moving';
  if (/^D@/.test(notation)) return 'place the reserve Dragon';
  return '';
}

export function territoriesHint(notation: string): string {
  const up = /^upgrade \S+ (\w+)/.exec(notation);
  if (up) return `upgrade to a ${up[1]}`;
  const conv = /^convert \S+ (\w+)/.exec(notation);
  if (conv) return `convert it into your ${conv[1]}`;
  return '';
}
