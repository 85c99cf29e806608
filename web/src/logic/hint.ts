// The engine's hints (docs/protocol.md: `POST /api/games/{id}/hint`, `POST /api/lessons/{game}/{n}/hint`):
// the server says in each snapshot (`may.hint`) when the game page offers the Hint button.

import type { Hint } from '../wire/ai/Hint';

/** The engine's preferred action for a seat's current decision (generated from `tabula_ai::analysis::Hint`). */
export type { Hint };
