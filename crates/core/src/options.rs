//! Game options: a typed struct per game, described by a schema so that `name=value` text (the CLI's
//! `--option`, the lobby's forms) can be parsed and checked once, here, for every game.
//!
//! A game's options type derives `Serialize`/`Deserialize` with field names equal to the option names of
//! the rules files (`large_board`, `light_pawn_rows`, `auto_rest`…) and implements [`GameOptions`].
//! [`parse_pairs`] turns `name=value` pairs into that struct: unknown names and bad values are errors
//! that list what is valid.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// An option's type and its valid values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OptionKind {
    /// `true` or `false`.
    Bool,
    /// A whole number in `min..=max`.
    Int { min: i64, max: i64 },
    /// One of the listed words.
    Choice { values: Vec<String> },
}

/// One option of a game: its name (as in the rules file), kind, default and a one-line description.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OptionSpec {
    pub name: String,
    #[serde(flatten)]
    pub kind: OptionKind,
    pub default: Value,
    pub description: String,
}

impl OptionSpec {
    pub fn bool(name: &str, default: bool, description: &str) -> OptionSpec {
        OptionSpec {
            name: name.into(),
            kind: OptionKind::Bool,
            default: Value::Bool(default),
            description: description.into(),
        }
    }
    pub fn int(name: &str, min: i64, max: i64, default: i64, description: &str) -> OptionSpec {
        OptionSpec {
            name: name.into(),
            kind: OptionKind::Int { min, max },
            default: Value::from(default),
            description: description.into(),
        }
    }
    pub fn choice(name: &str, values: &[&str], default: &str, description: &str) -> OptionSpec {
        OptionSpec {
            name: name.into(),
            kind: OptionKind::Choice {
                values: values.iter().map(|v| v.to_string()).collect(),
            },
            default: Value::String(default.into()),
            description: description.into(),
        }
    }

    /// The valid values, as shown in error messages and `tabula games`.
    pub fn valid_values(&self) -> String {
        match &self.kind {
            OptionKind::Bool => "true|false".to_string(),
            OptionKind::Int { min, max } => format!("{min}..={max}"),
            OptionKind::Choice { values } => values.join("|"),
        }
    }

    /// Parses one value given as text.
    pub fn parse_value(&self, text: &str) -> Result<Value, OptionsError> {
        let bad = || OptionsError::BadValue {
            option: self.name.clone(),
            value: text.to_string(),
            valid: self.valid_values(),
        };
        match &self.kind {
            OptionKind::Bool => match text {
                "true" | "yes" | "on" | "1" => Ok(Value::Bool(true)),
                "false" | "no" | "off" | "0" => Ok(Value::Bool(false)),
                _ => Err(bad()),
            },
            OptionKind::Int { min, max } => {
                let n: i64 = text.trim().parse().map_err(|_| bad())?;
                if n < *min || n > *max {
                    return Err(bad());
                }
                Ok(Value::from(n))
            }
            OptionKind::Choice { values } => {
                if values.iter().any(|v| v == text) {
                    Ok(Value::String(text.to_string()))
                } else {
                    Err(bad())
                }
            }
        }
    }

    /// Checks a value given as JSON (from the server's create-game request).
    pub fn check_json(&self, value: &Value) -> Result<(), OptionsError> {
        let ok = match (&self.kind, value) {
            (OptionKind::Bool, Value::Bool(_)) => true,
            (OptionKind::Int { min, max }, Value::Number(n)) => {
                n.as_i64().is_some_and(|n| n >= *min && n <= *max)
            }
            (OptionKind::Choice { values }, Value::String(s)) => values.contains(s),
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(OptionsError::BadValue {
                option: self.name.clone(),
                value: value.to_string(),
                valid: self.valid_values(),
            })
        }
    }
}

/// Why options were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OptionsError {
    #[error("unknown option “{option}”; valid options: {valid}")]
    Unknown { option: String, valid: String },
    #[error("bad value “{value}” for option “{option}”; valid values: {valid}")]
    BadValue {
        option: String,
        value: String,
        valid: String,
    },
    #[error("option given as “{0}”; write name=value")]
    Syntax(String),
    #[error("these options cannot be combined: {0}")]
    Conflict(String),
}

/// The options of one game.
pub trait GameOptions:
    Clone + Default + std::fmt::Debug + PartialEq + Send + Sync + Serialize + DeserializeOwned + 'static
{
    /// Every option, in the order they are shown.
    fn schema() -> Vec<OptionSpec>;

    /// Checks combinations the schema cannot express (e.g. an option that exists only on one board).
    fn validate(&self) -> Result<(), OptionsError> {
        Ok(())
    }
}

fn valid_names(schema: &[OptionSpec]) -> String {
    if schema.is_empty() {
        "(this game has no options)".to_string()
    } else {
        schema
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Parses `name=value` texts into options of type `O`; options not given keep their defaults.
pub fn parse_pairs<O: GameOptions, S: AsRef<str>>(pairs: &[S]) -> Result<O, OptionsError> {
    let schema = O::schema();
    let mut map = Map::new();
    for pair in pairs {
        let pair = pair.as_ref();
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| OptionsError::Syntax(pair.to_string()))?;
        let (name, value) = (name.trim(), value.trim());
        let spec = schema
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| OptionsError::Unknown {
                option: name.to_string(),
                valid: valid_names(&schema),
            })?;
        map.insert(name.to_string(), spec.parse_value(value)?);
    }
    from_json_map(&schema, map)
}

/// Checks a JSON object of options against `O`'s schema and builds `O`; missing options keep defaults.
pub fn parse_json<O: GameOptions>(value: &Value) -> Result<O, OptionsError> {
    let schema = O::schema();
    let map = match value {
        Value::Null => Map::new(),
        Value::Object(m) => m.clone(),
        other => return Err(OptionsError::Syntax(other.to_string())),
    };
    for (name, v) in &map {
        let spec =
            schema
                .iter()
                .find(|s| &s.name == name)
                .ok_or_else(|| OptionsError::Unknown {
                    option: name.clone(),
                    valid: valid_names(&schema),
                })?;
        spec.check_json(v)?;
    }
    from_json_map(&schema, map)
}

fn from_json_map<O: GameOptions>(
    schema: &[OptionSpec],
    given: Map<String, Value>,
) -> Result<O, OptionsError> {
    // Start from the struct's own defaults so that fields without a schema entry keep their value.
    let mut full = match serde_json::to_value(O::default()) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    for (k, v) in given {
        full.insert(k, v);
    }
    let options: O = serde_json::from_value(Value::Object(full)).map_err(|e| {
        OptionsError::Syntax(format!("{e} (valid options: {})", valid_names(schema)))
    })?;
    options.validate()?;
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Opts {
        large_board: bool,
        players: i64,
        light_pawn_rows: String,
    }

    impl Default for Opts {
        fn default() -> Self {
            Opts {
                large_board: false,
                players: 4,
                light_pawn_rows: "trench".into(),
            }
        }
    }

    impl GameOptions for Opts {
        fn schema() -> Vec<OptionSpec> {
            vec![
                OptionSpec::bool("large_board", false, "10x10 board"),
                OptionSpec::int("players", 2, 6, 4, "number of players"),
                OptionSpec::choice(
                    "light_pawn_rows",
                    &["trench", "open_field", "deadlock"],
                    "trench",
                    "rows",
                ),
            ]
        }
        fn validate(&self) -> Result<(), OptionsError> {
            if self.large_board && self.players > 4 {
                return Err(OptionsError::Conflict(
                    "large_board needs players <= 4".into(),
                ));
            }
            Ok(())
        }
    }

    #[test]
    fn pairs_fill_defaults_and_parse_each_kind() {
        let o: Opts = parse_pairs(&["large_board=true", "light_pawn_rows=deadlock"]).unwrap();
        assert_eq!(
            o,
            Opts {
                large_board: true,
                players: 4,
                light_pawn_rows: "deadlock".into()
            }
        );
        let o: Opts = parse_pairs(&["players=2"]).unwrap();
        assert_eq!(o.players, 2);
        assert_eq!(parse_pairs::<Opts, &str>(&[]).unwrap(), Opts::default());
    }

    #[test]
    fn unknown_option_lists_valid_names() {
        let e = parse_pairs::<Opts, _>(&["big=true"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown option “big”; valid options: large_board, players, light_pawn_rows"
        );
    }

    #[test]
    fn bad_values_list_valid_values() {
        let e = parse_pairs::<Opts, _>(&["players=7"]).unwrap_err();
        assert!(e.to_string().contains("valid values: 2..=6"), "{e}");
        let e = parse_pairs::<Opts, _>(&["light_pawn_rows=wide"]).unwrap_err();
        assert!(e.to_string().contains("trench|open_field|deadlock"), "{e}");
        let e = parse_pairs::<Opts, _>(&["large_board=maybe"]).unwrap_err();
        assert!(e.to_string().contains("true|false"), "{e}");
        let e = parse_pairs::<Opts, _>(&["large_board"]).unwrap_err();
        assert_eq!(e, OptionsError::Syntax("large_board".into()));
    }

    #[test]
    fn conflicting_options_are_refused() {
        let e = parse_pairs::<Opts, _>(&["large_board=true", "players=6"]).unwrap_err();
        assert!(matches!(e, OptionsError::Conflict(_)));
    }

    #[test]
    fn json_options_are_checked_against_the_schema() {
        let o: Opts = parse_json(&serde_json::json!({"players": 3})).unwrap();
        assert_eq!(o.players, 3);
        assert_eq!(parse_json::<Opts>(&Value::Null).unwrap(), Opts::default());
        assert!(parse_json::<Opts>(&serde_json::json!({"players": "3"})).is_err());
        assert!(parse_json::<Opts>(&serde_json::json!({"players": 9})).is_err());
        assert!(parse_json::<Opts>(&serde_json::json!({"colour": "red"})).is_err());
        assert!(parse_json::<Opts>(&serde_json::json!([1, 2])).is_err());
    }
}
