//! The one list of the platform's games, each registered with its AI knowledge, and the
//! per-game knowledge itself: an evaluation, a setup policy, move ordering and a playout policy
//! for every game (see [`crate::Knowledge`]).
//!
//! **Adding a game to Tabula** is one line in [`for_each_game`] (plus the game's crate and its
//! `Knowledge` in a module of this directory): the registry that the CLI and the server serve
//! ([`registry`]), the AI's dispatch from a game id to the game's type ([`with_game`]) and the list
//! of games the AI plays ([`ids`]) all read that list.

pub mod cyvasse;
pub mod kyo;
pub mod syba;
pub mod territories;

use tabula_core::dynamic::Registry;

use crate::Knowledge;

/// Something done with each game's type in turn (see [`for_each_game`]).
pub trait GameVisitor {
    /// Called once per game, with the game's type.
    fn visit<G: Knowledge>(&mut self);
}

/// Every game of the platform, in the order `tabula games` and the lobby list them.
pub fn for_each_game(visitor: &mut impl GameVisitor) {
    visitor.visit::<::cyvasse::trump::TrumpCyvasse>();
    visitor.visit::<::cyvasse::caird::CairdCyvasse>();
    visitor.visit::<::kyo::Kyo>();
    visitor.visit::<::territories::Territories>();
    visitor.visit::<::syba::Syba>();
}

/// The type-erased registry of every game (for the CLI and the server).
pub fn registry() -> Registry {
    struct Register(Registry);
    impl GameVisitor for Register {
        fn visit<G: Knowledge>(&mut self) {
            self.0.register::<G>();
        }
    }
    let mut r = Register(Registry::new());
    for_each_game(&mut r);
    r.0
}

/// The ids of every game, in the order of [`for_each_game`].
pub fn ids() -> Vec<&'static str> {
    struct Ids(Vec<&'static str>);
    impl GameVisitor for Ids {
        fn visit<G: Knowledge>(&mut self) {
            self.0.push(G::ID);
        }
    }
    let mut ids = Ids(Vec::new());
    for_each_game(&mut ids);
    ids.0
}

/// A computation generic over a game's type, run by [`with_game`] for the game a run-time id
/// names.
pub trait GameFn {
    /// What the computation gives.
    type Output;
    /// Runs it for the game `G`.
    fn call<G: Knowledge>(self) -> Self::Output;
}

/// Runs `f` for the game whose id is `id`; `None` when no game has that id.
pub fn with_game<F: GameFn>(id: &str, f: F) -> Option<F::Output> {
    struct Find<'a, F: GameFn> {
        id: &'a str,
        f: Option<F>,
        out: Option<F::Output>,
    }
    impl<F: GameFn> GameVisitor for Find<'_, F> {
        fn visit<G: Knowledge>(&mut self) {
            if G::ID == self.id
                && let Some(f) = self.f.take()
            {
                self.out = Some(f.call::<G>());
            }
        }
    }
    let mut find = Find {
        id,
        f: Some(f),
        out: None,
    };
    for_each_game(&mut find);
    find.out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry, the AI's ids and the dispatch all come from the one list: the same games in
    /// the same order, each id reaching its own type, and an unknown id reaching none.
    #[test]
    fn one_list_feeds_the_registry_the_ids_and_the_dispatch() {
        let ids = ids();
        assert_eq!(
            ids,
            [
                "cyvasse-trump",
                "cyvasse-caird",
                "kyo",
                "territories",
                "syba"
            ]
        );
        assert_eq!(registry().ids(), ids);
        struct Name;
        impl GameFn for Name {
            type Output = &'static str;
            fn call<G: Knowledge>(self) -> &'static str {
                G::ID
            }
        }
        for id in &ids {
            assert_eq!(with_game(id, Name), Some(*id));
        }
        assert_eq!(with_game("chess", Name), None);
    }
}
