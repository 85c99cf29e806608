//! The options of Territories. The defaults are the rules file's **\[decision\]**s.

use serde::{Deserialize, Serialize};
use tabula_core::{GameOptions, OptionSpec, OptionsError};

/// Options of Territories (JSON field names are the option names).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TerritoriesOptions {
    /// Turns (both players' together, setup excluded) after which the player with more points wins;
    /// equal points draw. Default 200 (100 each).
    pub max_turns: u32,
    /// Trade offers the player whose turn it is may open per turn. Default 3.
    pub max_offers: u8,
    /// Whether territory cards count towards the hand limit of 7 after a roll of 7 (and may be
    /// discarded). Default true.
    pub hand_limit_counts_territories: bool,
}

impl Default for TerritoriesOptions {
    fn default() -> Self {
        TerritoriesOptions {
            max_turns: 200,
            max_offers: 3,
            hand_limit_counts_territories: true,
        }
    }
}

impl GameOptions for TerritoriesOptions {
    fn schema() -> Vec<OptionSpec> {
        vec![
            OptionSpec::int(
                "max_turns",
                2,
                2000,
                200,
                "turns (both players' together) after which more points wins; equal points draw",
            ),
            OptionSpec::int(
                "max_offers",
                0,
                10,
                3,
                "trade offers the player whose turn it is may make per turn",
            ),
            OptionSpec::bool(
                "hand_limit_counts_territories",
                true,
                "territory cards count towards the hand limit of 7 after a 7 is rolled",
            ),
        ]
    }

    fn validate(&self) -> Result<(), OptionsError> {
        let bad = |option: &str, value: String, valid: &str| OptionsError::BadValue {
            option: option.into(),
            value,
            valid: valid.into(),
        };
        if !(2..=2000).contains(&self.max_turns) {
            return Err(bad("max_turns", self.max_turns.to_string(), "2..=2000"));
        }
        if self.max_offers > 10 {
            return Err(bad("max_offers", self.max_offers.to_string(), "0..=10"));
        }
        Ok(())
    }
}
