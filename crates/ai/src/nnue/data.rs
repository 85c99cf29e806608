//! Training data for the learned evaluation: positions played by the engine and labelled by a
//! deeper alpha-beta search than level 5's, with the game's final result to blend.
//!
//! ## How positions are made ([`generate`])
//! Game `g` of a data set (0, 1, 2, …) is played from the seed `mix(seed, g)`: first a random
//! opening (`opening_min..=opening_max` uniformly random legal actions), then alpha-beta with
//! `play_nodes` nodes per decision (a random legal action instead with probability `epsilon`).
//! A position where the acting seat starts a decision that is not in the middle of a turn
//! ([`Knowledge::closing_action`] is `None`, as at every leaf alpha-beta scores) and has more than
//! one action is labelled with probability `label_prob` by an alpha-beta search of `label_nodes`
//! nodes (and at most `label_depth` actions deep), whose choice is then played. Features are taken
//! from a determinization for the acting seat ([`tabula_core::Game::determinize`]), so only what
//! that seat may see enters them (labelling with alpha-beta needs a two-player perfect-information
//! position: today Kyo). A game stops after `max_actions` actions as a draw.
//!
//! Budgets are node counts, so a data set is a pure function of its settings: game `g` is the same
//! on any machine, and a resumed run continues exactly where an uninterrupted one would have gone.
//!
//! ## Files of a data directory
//! * `positions.bin`: the positions of finished games, one record after another, little-endian:
//!   `u16 n`, `n × u16` active feature indices (the game's feature set, from the perspective of the
//!   side to move), `f32` search label (the side to move's expected score after the labelling
//!   search, [`super::label_from_search`]), `u8` result for the side to move (0 loss, 1 draw, 2 win).
//! * `manifest.json` ([`Manifest`]): the format, game, feature set, settings, the counts (games,
//!   positions, bytes of `positions.bin` that belong to finished games) and every run.
//!
//! The manifest is rewritten (through a temporary file and a rename) after each finished game, once
//! that game's records are written. A run killed at any moment loses at most its unfinished game:
//! the next run cuts `positions.bin` back to the manifest's byte count and replays that game from
//! its seed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use tabula_core::Actor;
use tabula_core::rand::RngExt;
use tabula_core::record::Match;

use crate::AiError;
use crate::alphabeta::{self, AlphaBetaConfig};
use crate::knowledge::{Knowledge, agent_actions_vec, stable_hash};

/// The format name in a data manifest.
pub const FORMAT: &str = "tabula-nnue-positions-1";
/// The most features a position record may hold.
pub const MAX_FEATURES: usize = 1024;

/// How positions are played and labelled (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataSettings {
    pub seed: u64,
    pub play_nodes: u64,
    pub label_nodes: u64,
    pub label_depth: u32,
    pub opening_min: u32,
    pub opening_max: u32,
    /// Probability of a random action instead of the search's, in per mille.
    pub epsilon_permille: u32,
    /// Probability that an eligible position is labelled, in per mille.
    pub label_permille: u32,
    pub max_actions: u64,
}

impl Default for DataSettings {
    fn default() -> Self {
        DataSettings {
            seed: 1,
            play_nodes: 4_000,
            label_nodes: 120_000,
            label_depth: 64,
            opening_min: 2,
            opening_max: 12,
            epsilon_permille: 50,
            label_permille: 350,
            max_actions: 1_500,
        }
    }
}

/// One run of [`generate`] on a data directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// Unix seconds at the start and end.
    pub started: u64,
    pub ended: u64,
    pub games: u64,
    pub positions: u64,
    pub seconds: f64,
    pub command: String,
}

/// `manifest.json` of a data directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub game: String,
    pub feature_set: String,
    pub inputs: usize,
    pub settings: DataSettings,
    /// Finished games (the next game to play is this index).
    pub games: u64,
    pub positions: u64,
    /// Bytes of `positions.bin` that belong to finished games.
    pub bytes: u64,
    /// Games stopped by the action limit (their positions' result is a draw).
    pub capped_games: u64,
    pub runs: Vec<Run>,
}

/// A labelled position.
#[derive(Debug, Clone, PartialEq)]
pub struct Position {
    pub features: Vec<u16>,
    /// The side to move's expected score after the labelling search.
    pub search: f32,
    /// The side to move's final score (0, ½, 1).
    pub result: f32,
}

impl Position {
    /// The training target: `lambda × search + (1 − lambda) × result`.
    pub fn target(&self, lambda: f32) -> f32 {
        lambda * self.search + (1.0 - lambda) * self.result
    }

    /// Appends the record's bytes (see the module docs).
    pub fn write_to(&self, out: &mut Vec<u8>) {
        let n = self.features.len().min(MAX_FEATURES);
        out.extend_from_slice(&(n as u16).to_le_bytes());
        for f in &self.features[..n] {
            out.extend_from_slice(&f.to_le_bytes());
        }
        out.extend_from_slice(&self.search.to_le_bytes());
        out.push(if self.result > 0.75 {
            2
        } else if self.result > 0.25 {
            1
        } else {
            0
        });
    }
}

fn data_err(e: impl std::fmt::Display) -> AiError {
    AiError::Data(e.to_string())
}

/// Parses the records of `bytes`, checking every feature index against `inputs`.
pub fn parse_positions(bytes: &[u8], inputs: usize) -> Result<Vec<Position>, AiError> {
    let mut r = super::Reader::new(bytes);
    let mut out = Vec::new();
    while r.rest() > 0 {
        let at = r.pos();
        let bad = |what: &str| data_err(format!("record at byte {at}: {what}"));
        let n = usize::from(r.u16().map_err(|_| bad("cut short"))?);
        if n > MAX_FEATURES {
            return Err(bad("too many features"));
        }
        let mut features = Vec::with_capacity(n);
        for _ in 0..n {
            let f = r.u16().map_err(|_| bad("cut short"))?;
            if usize::from(f) >= inputs {
                return Err(bad(&format!("feature {f} is not below {inputs}")));
            }
            features.push(f);
        }
        let b = r.take(4).map_err(|_| bad("cut short"))?;
        let search = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        if !(0.0..=1.0).contains(&search) {
            return Err(bad("search label outside 0..=1"));
        }
        let result = match r.take(1).map_err(|_| bad("cut short"))?[0] {
            0 => 0.0,
            1 => 0.5,
            2 => 1.0,
            _ => return Err(bad("result is not 0, 1 or 2")),
        };
        out.push(Position {
            features,
            search,
            result,
        });
    }
    Ok(out)
}

/// The manifest of the data directory `dir` (`None` when it has none yet).
pub fn read_manifest(dir: &Path) -> Result<Option<Manifest>, AiError> {
    let path = dir.join("manifest.json");
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| data_err(format!("{}: {e}", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(data_err(format!("{}: {e}", path.display()))),
    }
}

fn write_manifest(dir: &Path, m: &Manifest) -> Result<(), AiError> {
    let path = dir.join("manifest.json");
    let tmp = dir.join("manifest.json.tmp");
    let text = serde_json::to_string_pretty(m).map_err(data_err)?;
    std::fs::write(&tmp, text + "\n").map_err(|e| data_err(format!("{}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, &path).map_err(|e| data_err(format!("{}: {e}", path.display())))
}

/// The positions of the finished games of the data directory `dir`, with its manifest.
pub fn read_dir(dir: &Path) -> Result<(Manifest, Vec<Position>), AiError> {
    let m = read_manifest(dir)?
        .ok_or_else(|| data_err(format!("{} has no manifest.json", dir.display())))?;
    if m.format != FORMAT {
        return Err(data_err(format!(
            "unknown format `{}` (expected `{FORMAT}`)",
            m.format
        )));
    }
    let path = dir.join("positions.bin");
    let bytes = std::fs::read(&path).map_err(|e| data_err(format!("{}: {e}", path.display())))?;
    let len = usize::try_from(m.bytes).map_err(data_err)?;
    if bytes.len() < len {
        return Err(data_err(format!(
            "{} holds {} bytes, the manifest counts {len}",
            path.display(),
            bytes.len()
        )));
    }
    let positions = parse_positions(&bytes[..len], m.inputs)?;
    if positions.len() as u64 != m.positions {
        return Err(data_err(format!(
            "{} holds {} positions, the manifest counts {}",
            path.display(),
            positions.len(),
            m.positions
        )));
    }
    Ok((m, positions))
}

/// What [`generate`] reports as it goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GenProgress {
    /// Positions in the data set (finished games) and labelled in the game being played.
    pub positions: u64,
    pub pending: u64,
    pub games: u64,
    /// Positions labelled by this run per second.
    pub rate: f64,
}

fn now_unix() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn game_seed(seed: u64, g: u64) -> u64 {
    stable_hash(&(seed, g, "nnue-data"))
}

/// Plays game `g` of a data set and returns its labelled positions, or `None` when `stop` was set
/// before it ended. `on_label` is called after every labelled position.
pub fn play_game<G: Knowledge>(
    settings: &DataSettings,
    g: u64,
    stop: &AtomicBool,
    on_label: &mut dyn FnMut(u64),
) -> Result<Option<(Vec<Position>, bool)>, AiError> {
    let options: G::Options =
        tabula_core::options::parse_json(&serde_json::Value::Null).map_err(data_err)?;
    let seed = game_seed(settings.seed, g);
    let mut m = Match::<G>::new(options, seed).map_err(|e| AiError::Options(e.to_string()))?;
    let mut rng = tabula_core::rng_from_seed(seed);
    let opening =
        rng.random_range(settings.opening_min..=settings.opening_max.max(settings.opening_min));
    // (seat, position) of every labelled position; the result is filled in at the end.
    let mut labelled: Vec<(tabula_core::Seat, Vec<u16>, f32)> = Vec::new();
    let mut n = 0u64;
    let mut features = Vec::new();
    while n < settings.max_actions {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let (seat, chance) = crate::tournament::next_decision(&mut m)?;
        n += chance;
        let Some(seat) = seat else {
            break;
        };
        let sample = m.state().determinize(seat, &mut rng);
        let actions = agent_actions_vec(&sample, seat);
        if actions.is_empty() {
            return Err(AiError::NoLegalAction(format!(
                "seat {seat} has no legal action"
            )));
        }
        let random =
            n < u64::from(opening) || rng.random_range(0..1000u32) < settings.epsilon_permille;
        let searchable = sample.seats() == 2 && sample.perfect_information();
        let eligible = n >= u64::from(opening)
            && searchable
            && actions.len() > 1
            && sample.closing_action().is_none();
        let label = eligible && rng.random_range(0..1000u32) < settings.label_permille;
        let mut chosen = None;
        if label {
            let cfg = AlphaBetaConfig {
                max_nodes: settings.label_nodes,
                max_depth: settings.label_depth.max(1),
                ..AlphaBetaConfig::default()
            };
            if let Some((a, st)) = alphabeta::search(&sample, seat, &cfg, &mut rng)
                && st.depth > 0
            {
                features.clear();
                if let Some(persp) = sample.nnue_features(&mut features)
                    && persp == seat
                {
                    labelled.push((seat, features.clone(), super::label_from_search(st.value)));
                    on_label(labelled.len() as u64);
                }
                chosen = Some(a);
            }
        }
        let action = if random {
            actions[rng.random_range(0..actions.len())].clone()
        } else if let Some(a) = chosen {
            a
        } else if searchable {
            let cfg = AlphaBetaConfig {
                max_nodes: settings.play_nodes,
                ..AlphaBetaConfig::default()
            };
            alphabeta::search(&sample, seat, &cfg, &mut rng)
                .map(|(a, _)| a)
                .unwrap_or_else(|| actions[0].clone())
        } else {
            actions[rng.random_range(0..actions.len())].clone()
        };
        m.apply(Actor::Seat(seat), action)
            .map_err(|e| AiError::Game(e.to_string()))?;
        n += 1;
    }
    let outcome = m.to_act().outcome().cloned();
    let capped = outcome.is_none();
    let positions = labelled
        .into_iter()
        .map(|(seat, features, search)| Position {
            features,
            search,
            result: outcome.as_ref().map_or(0.5, |o| o.score(seat) as f32),
        })
        .collect();
    Ok(Some((positions, capped)))
}

/// Generates positions into the data directory `dir` for game `G` until it holds at least
/// `target` positions or `stop` is set, resuming what the directory holds (its settings must be
/// `settings`). Returns the manifest as it stands at the end.
pub fn generate<G: Knowledge>(
    dir: &Path,
    settings: &DataSettings,
    target: u64,
    command: &str,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&GenProgress),
) -> Result<Manifest, AiError> {
    let Some(fs) = G::NNUE_FEATURES else {
        return Err(AiError::Net(super::NetError::NoFeatures(G::ID.to_string())));
    };
    if settings.label_nodes == 0 || settings.play_nodes == 0 {
        return Err(data_err("search budgets must be at least 1 node"));
    }
    std::fs::create_dir_all(dir).map_err(|e| data_err(format!("{}: {e}", dir.display())))?;
    let mut manifest = match read_manifest(dir)? {
        Some(m) => {
            if m.format != FORMAT || m.game != G::ID || m.feature_set != fs.name {
                return Err(data_err(format!(
                    "{} holds {} data of {} ({}); this run makes {FORMAT} data of {} ({})",
                    dir.display(),
                    m.format,
                    m.game,
                    m.feature_set,
                    G::ID,
                    fs.name
                )));
            }
            if m.settings != *settings {
                return Err(data_err(format!(
                    "{} was made with other settings ({}); resume with the same settings or use another directory",
                    dir.display(),
                    serde_json::to_string(&m.settings).map_err(data_err)?
                )));
            }
            m
        }
        None => Manifest {
            format: FORMAT.to_string(),
            game: G::ID.to_string(),
            feature_set: fs.name.to_string(),
            inputs: fs.inputs,
            settings: settings.clone(),
            games: 0,
            positions: 0,
            bytes: 0,
            capped_games: 0,
            runs: Vec::new(),
        },
    };
    let path: PathBuf = dir.join("positions.bin");
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| data_err(format!("{}: {e}", path.display())))?;
    let len = file.metadata().map_err(data_err)?.len();
    if len < manifest.bytes {
        return Err(data_err(format!(
            "{} holds {len} bytes, fewer than the {} the manifest counts",
            path.display(),
            manifest.bytes
        )));
    }
    // Drop what an interrupted run wrote past its last finished game.
    file.set_len(manifest.bytes).map_err(data_err)?;
    use std::io::Seek;
    file.seek(std::io::SeekFrom::End(0)).map_err(data_err)?;
    let start = Instant::now();
    let started = now_unix();
    let (games0, positions0) = (manifest.games, manifest.positions);
    manifest.runs.push(Run {
        started,
        ended: started,
        games: 0,
        positions: 0,
        seconds: 0.0,
        command: command.to_string(),
    });
    let mut labelled_this_run = 0u64;
    while manifest.positions < target && !stop.load(Ordering::Relaxed) {
        let (base, games) = (manifest.positions, manifest.games);
        let mut on_label = |pending: u64| {
            let secs = start.elapsed().as_secs_f64().max(1e-9);
            progress(&GenProgress {
                positions: base,
                pending,
                games,
                rate: (labelled_this_run + pending) as f64 / secs,
            });
        };
        let Some((positions, capped)) =
            play_game::<G>(settings, manifest.games, stop, &mut on_label)?
        else {
            break;
        };
        labelled_this_run += positions.len() as u64;
        let mut bytes = Vec::new();
        for p in &positions {
            p.write_to(&mut bytes);
        }
        file.write_all(&bytes).map_err(data_err)?;
        file.sync_data().map_err(data_err)?;
        manifest.games += 1;
        manifest.positions += positions.len() as u64;
        manifest.bytes += bytes.len() as u64;
        manifest.capped_games += u64::from(capped);
        if let Some(run) = manifest.runs.last_mut() {
            run.ended = now_unix();
            run.games = manifest.games - games0;
            run.positions = manifest.positions - positions0;
            run.seconds = start.elapsed().as_secs_f64();
        }
        write_manifest(dir, &manifest)?;
        progress(&GenProgress {
            positions: manifest.positions,
            pending: 0,
            games: manifest.games,
            rate: labelled_this_run as f64 / start.elapsed().as_secs_f64().max(1e-9),
        });
    }
    if let Some(run) = manifest.runs.last_mut() {
        run.ended = now_unix();
        run.seconds = start.elapsed().as_secs_f64();
    }
    if manifest.runs.last().is_some_and(|r| r.games == 0) {
        manifest.runs.pop();
    } else {
        write_manifest(dir, &manifest)?;
    }
    Ok(manifest)
}
