//! Positions the AI crate's tests share.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use kyo::{Kyo, KyoOptions};
use tabula_core::record::RecordedAction;
use tabula_core::{Actor, Game, Seat, legal_actions_vec};

/// Gold's Heavy on E4 stands next to Red's King on E5: capturing it wins at once.
pub fn king_en_prise() -> Kyo {
    Kyo::from_stacks(
        &KyoOptions::default(),
        &[
            ("A0", "SSSK"),
            ("E4", "DDDH"),
            ("E5", "sssk"),
            ("J9", "dddh"),
        ],
        0,
    )
    .unwrap()
}

/// A blunder in [`king_en_prise`]: Gold walks its Heavy away (E4-D3) instead of taking the King,
/// and Red answers with its first legal action.
pub struct Blunder {
    pub away: kyo::Action,
    /// The position after Gold's move.
    pub after: Kyo,
    pub reply: kyo::Action,
    /// Both actions, as a record lists them.
    pub actions: [RecordedAction<kyo::Action>; 2],
}

pub fn blunder(k: &Kyo) -> Blunder {
    let away = k.parse_action("E4-D3").unwrap();
    assert!(legal_actions_vec(k, Seat(0)).contains(&away));
    let mut after = k.clone();
    after.apply(Actor::Seat(Seat(0)), &away).unwrap();
    let reply = legal_actions_vec(&after, Seat(1))[0];
    let actions = [
        RecordedAction {
            actor: Actor::Seat(Seat(0)),
            action: away,
        },
        RecordedAction {
            actor: Actor::Seat(Seat(1)),
            action: reply,
        },
    ];
    Blunder {
        away,
        after,
        reply,
        actions,
    }
}
