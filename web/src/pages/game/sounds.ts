// The game page's sounds: a chime when it becomes this player's turn, else a click for a new move
// (none on opening; hot-seat: a click for each move, no chime for each hand-over). No DOM.

import { statusState, type Snapshot } from '../../logic/snapshot';

export class TurnSounds {
  /** The number of moves, and whether it was this player's turn, when last heard (-1: not yet). */
  private heardMoves = -1;
  private wasMyTurn = false;

  constructor(private readonly play: (kind: 'turn' | 'move') => void) {}

  hear(next: Snapshot, moves: number, hotseat: boolean): void {
    const turnNow = statusState(next) === 'yours';
    if (this.heardMoves >= 0) {
      if (turnNow && !this.wasMyTurn && !hotseat) this.play('turn');
      else if (moves > this.heardMoves) this.play('move');
    }
    this.heardMoves = moves;
    this.wasMyTurn = turnNow;
  }
}
