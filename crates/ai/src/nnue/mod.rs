//! A learned evaluation (issue 41): a small NNUE-style network per game, its file format, its
//! inference, the training data ([`data`]) and a trainer ([`train`]).
//!
//! ## The network
//! Sparse binary inputs (a game's feature set, [`Knowledge::nnue_features`]: for Kyo, pawn kind ×
//! own/enemy × square, chip kind × own/enemy × square × depth in the stack, Mana counts, the
//! quiet-turn count), always from the **side to move's** perspective (the board is mirrored for the
//! second seat), feed an accumulator of `h1` neurons (the sum of one weight row per active feature
//! plus a bias), then a clipped ReLU (`clamp(x, 0, 1)`), a dense layer of `h2` neurons, a clipped
//! ReLU and one output neuron: the logit of the side to move's expected score (1 win, ½ draw, 0
//! loss). All weights are `f32`; inference is plain Rust (no dependency).
//!
//! Inside a search ([`LearnedEval`], level 6) the accumulators are incremental where the game
//! allows it (Kyo, [`Knowledge::nnue_delta`]): each ply of the search's path keeps both seats'
//! accumulators, and a child's are its parent's plus and minus the rows of the few features its
//! action changed (the squares it touched, the Mana counts, the quiet-turn count, the mid-turn
//! flag), rather than about 60 rows afresh. [`evaluate`] computes a state afresh. The cost per node
//! of both, beside the hand-written evaluation's, is in BENCHMARKS.md.
//!
//! ## The net file (`.nnue`, little-endian)
//! | bytes | field |
//! |---|---|
//! | 8 | magic `TBNNUE01` |
//! | 2 + n | game id (u16 length, UTF-8) |
//! | 2 + n | feature set name (u16 length, UTF-8), e.g. `kyo-v1` |
//! | 4 × 3 | `inputs`, `h1`, `h2` (u32) |
//! | 4 × … | `w1` (`inputs` rows of `h1`), `b1` (`h1`), `w2` (`h2` rows of `h1`), `b2` (`h2`), `w3` (`h2`), `b3` (1), f32 |
//! | 8 | FNV-1a 64 of every byte before it |
//!
//! A missing file, a bad magic, a wrong game or feature set, impossible sizes, a short or long file,
//! a checksum mismatch or a non-finite weight is an [`NetError`], never a silent fall-back to the
//! hand-written evaluation.
//!
//! ## Which nets the AI knows
//! [`net_for`] gives the net of a game: one installed at run time ([`install`], e.g. by
//! `tabula tournament --net FILE`) or one committed with the crate under `crates/ai/nets/`
//! ([`BUILTIN`]). The agent `level6` (alpha-beta at level 5's budget over the net) needs one and
//! fails with a clear error without it.

pub mod data;
pub mod train;

use std::path::Path;
use std::sync::{Arc, OnceLock, RwLock};

use crate::knowledge::Knowledge;

/// The magic at the start of a net file.
pub const MAGIC: &[u8; 8] = b"TBNNUE01";

/// A game's sparse input features: a name (stored in nets and data, so that a net is never used
/// with another feature set) and the number of inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeatureSet {
    pub name: &'static str,
    pub inputs: usize,
}

/// Why a net could not be loaded or used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    #[error("net file {path}: {reason}")]
    File { path: String, reason: String },
    #[error("corrupt net: {0}")]
    Corrupt(String),
    #[error("game `{0}` has no feature set for a learned evaluation")]
    NoFeatures(String),
    #[error("no net for game `{0}`: train one (`tabula train net`) and pass it with --net FILE")]
    Missing(String),
    #[error("the net is for {found}, not {expected}")]
    WrongGame { expected: String, found: String },
}

/// A network: its game, feature set and weights (see the module docs for the layout).
#[derive(Debug, Clone, PartialEq)]
pub struct Net {
    pub game: String,
    pub feature_set: String,
    pub inputs: usize,
    pub h1: usize,
    pub h2: usize,
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
    pub w3: Vec<f32>,
    pub b3: f32,
}

/// The largest layer sizes a net file may declare (a guard against absurd allocations).
const MAX_INPUTS: usize = 1 << 16;
const MAX_HIDDEN: usize = 1024;

/// FNV-1a 64 of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Reads little-endian values from a byte slice, failing with [`NetError::Corrupt`] past its end.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, pos: 0 }
    }
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], NetError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| NetError::Corrupt("the file is cut short".into()))?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    pub(crate) fn u16(&mut self) -> Result<u16, NetError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    pub(crate) fn u32(&mut self) -> Result<u32, NetError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub(crate) fn u64(&mut self) -> Result<u64, NetError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    pub(crate) fn f32s(&mut self, n: usize) -> Result<Vec<f32>, NetError> {
        let len = n
            .checked_mul(4)
            .ok_or_else(|| NetError::Corrupt("impossible size".into()))?;
        let b = self.take(len)?;
        let v: Vec<f32> = b
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if v.iter().any(|x| !x.is_finite()) {
            return Err(NetError::Corrupt("a weight is not a finite number".into()));
        }
        Ok(v)
    }
    pub(crate) fn string(&mut self) -> Result<String, NetError> {
        let n = usize::from(self.u16()?);
        let b = self.take(n)?;
        String::from_utf8(b.to_vec()).map_err(|_| NetError::Corrupt("a name is not UTF-8".into()))
    }
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }
    pub(crate) fn rest(&self) -> usize {
        self.bytes.len() - self.pos
    }
}

pub(crate) fn put_string(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    let n = u16::try_from(b.len()).unwrap_or(u16::MAX);
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&b[..usize::from(n)]);
}

pub(crate) fn put_f32s(out: &mut Vec<u8>, v: &[f32]) {
    for x in v {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

impl Net {
    /// A net of the given sizes with every weight zero (the trainer initialises it).
    pub fn zeros(game: &str, features: FeatureSet, h1: usize, h2: usize) -> Net {
        Net {
            game: game.to_string(),
            feature_set: features.name.to_string(),
            inputs: features.inputs,
            h1,
            h2,
            w1: vec![0.0; features.inputs * h1],
            b1: vec![0.0; h1],
            w2: vec![0.0; h2 * h1],
            b2: vec![0.0; h2],
            w3: vec![0.0; h2],
            b3: 0.0,
        }
    }

    /// The number of weights.
    pub fn parameters(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + self.b2.len() + self.w3.len() + 1
    }

    /// The net file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 4 * self.parameters());
        out.extend_from_slice(MAGIC);
        put_string(&mut out, &self.game);
        put_string(&mut out, &self.feature_set);
        for n in [self.inputs, self.h1, self.h2] {
            out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
        }
        put_f32s(&mut out, &self.w1);
        put_f32s(&mut out, &self.b1);
        put_f32s(&mut out, &self.w2);
        put_f32s(&mut out, &self.b2);
        put_f32s(&mut out, &self.w3);
        out.extend_from_slice(&self.b3.to_le_bytes());
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Parses a net file's bytes (see the module docs); every inconsistency is an error.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetError> {
        if bytes.len() < MAGIC.len() + 8 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetError::Corrupt(
                "not a Tabula net file (bad magic)".into(),
            ));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut s = [0u8; 8];
        s.copy_from_slice(sum);
        if fnv1a(body) != u64::from_le_bytes(s) {
            return Err(NetError::Corrupt("checksum mismatch".into()));
        }
        let mut r = Reader::new(body);
        r.take(MAGIC.len())?;
        let game = r.string()?;
        let feature_set = r.string()?;
        let inputs = r.u32()? as usize;
        let h1 = r.u32()? as usize;
        let h2 = r.u32()? as usize;
        if inputs == 0 || inputs > MAX_INPUTS || !(1..=MAX_HIDDEN).contains(&h1) {
            return Err(NetError::Corrupt(format!(
                "impossible sizes {inputs} × {h1} × {h2}"
            )));
        }
        if !(1..=MAX_HIDDEN).contains(&h2) {
            return Err(NetError::Corrupt(format!(
                "impossible sizes {inputs} × {h1} × {h2}"
            )));
        }
        let net = Net {
            game,
            feature_set,
            inputs,
            h1,
            h2,
            w1: r.f32s(inputs * h1)?,
            b1: r.f32s(h1)?,
            w2: r.f32s(h2 * h1)?,
            b2: r.f32s(h2)?,
            w3: r.f32s(h2)?,
            b3: r.f32s(1)?[0],
        };
        if r.rest() != 0 {
            return Err(NetError::Corrupt(format!(
                "{} bytes after the weights",
                r.rest()
            )));
        }
        Ok(net)
    }

    /// Loads a net file.
    pub fn load(path: &Path) -> Result<Net, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::File {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        Net::from_bytes(&bytes).map_err(|e| NetError::File {
            path: path.display().to_string(),
            reason: e.to_string(),
        })
    }

    /// Writes the net file (to a temporary file renamed into place, so a reader never sees half).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let tmp = path.with_extension("nnue.tmp");
        std::fs::write(&tmp, self.to_bytes())?;
        std::fs::rename(&tmp, path)
    }

    /// Checks that this net is `G`'s, with `G`'s feature set.
    pub fn check_game<G: Knowledge>(&self) -> Result<(), NetError> {
        let Some(fs) = G::NNUE_FEATURES else {
            return Err(NetError::NoFeatures(G::ID.to_string()));
        };
        if self.game != G::ID || self.feature_set != fs.name || self.inputs != fs.inputs {
            return Err(NetError::WrongGame {
                expected: format!("{} ({}, {} inputs)", G::ID, fs.name, fs.inputs),
                found: format!(
                    "{} ({}, {} inputs)",
                    self.game, self.feature_set, self.inputs
                ),
            });
        }
        Ok(())
    }

    /// The output logit for the active `features` (indices below `inputs`; others are ignored).
    pub fn logit(&self, features: &[u16]) -> f32 {
        let mut stack = [0f32; MAX_STACK];
        let mut heap;
        let acc: &mut [f32] = if self.h1 <= MAX_STACK {
            &mut stack[..self.h1]
        } else {
            heap = vec![0f32; self.h1];
            &mut heap
        };
        self.accumulate(features, acc);
        self.logit_from_accumulator(acc)
    }

    /// Writes the accumulator of the active `features` into `acc` (`h1` values: the bias plus one
    /// weight row per feature; indices at or above `inputs` are ignored).
    pub fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        acc.copy_from_slice(&self.b1);
        self.update_accumulator(acc, &[], features);
    }

    /// Updates an accumulator for a change of the active features: the rows of `removed`
    /// subtracted, those of `added` added.
    pub fn update_accumulator(&self, acc: &mut [f32], removed: &[u16], added: &[u16]) {
        for &f in removed {
            let f = usize::from(f);
            if f < self.inputs {
                let row = &self.w1[f * self.h1..(f + 1) * self.h1];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a -= w;
                }
            }
        }
        for &f in added {
            let f = usize::from(f);
            if f < self.inputs {
                let row = &self.w1[f * self.h1..(f + 1) * self.h1];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
    }

    /// The output logit from an accumulator (the layers after the first).
    pub fn logit_from_accumulator(&self, acc: &[f32]) -> f32 {
        let mut stack = [0f32; MAX_STACK];
        let mut heap;
        let clipped: &mut [f32] = if self.h1 <= MAX_STACK {
            &mut stack[..self.h1]
        } else {
            heap = vec![0f32; self.h1];
            &mut heap
        };
        for (c, a) in clipped.iter_mut().zip(acc) {
            *c = a.clamp(0.0, 1.0);
        }
        let mut out = self.b3;
        for j in 0..self.h2 {
            let row = &self.w2[j * self.h1..(j + 1) * self.h1];
            let z: f32 = self.b2[j]
                + row
                    .iter()
                    .zip(clipped.iter())
                    .map(|(w, a)| w * a)
                    .sum::<f32>();
            out += self.w3[j] * z.clamp(0.0, 1.0);
        }
        out
    }

    /// The side to move's expected score for the active `features`.
    pub fn score(&self, features: &[u16]) -> f32 {
        sigmoid(self.logit(features))
    }
}

/// Accumulators up to this size live on the stack.
const MAX_STACK: usize = 256;

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The learned evaluation of `state` with `net`: one expected score per seat, like
/// [`Knowledge::evaluate`] (two-player games: the side to move's score and its complement).
/// `None` when the game has no feature set or the state no side to move.
pub fn evaluate<G: Knowledge>(net: &Net, state: &G, buf: &mut Vec<u16>) -> Option<Vec<f64>> {
    buf.clear();
    let persp = state.nnue_features(buf)?;
    let p = f64::from(net.score(buf));
    let seats = state.seats();
    let mut v = vec![(1.0 - p) / (seats.max(2) - 1) as f64; seats];
    *v.get_mut(persp.index())? = p;
    Some(v)
}

/// The learned evaluation inside a search ([`crate::alphabeta::LeafEval`]), with incremental
/// accumulators where the game reports what an action changed ([`Knowledge::nnue_delta`]: Kyo).
///
/// Each ply of the search's path keeps both seats' accumulators (the net's first layer for the
/// features seen from Gold and from Red). A child's are its parent's plus the rows of the features
/// the action added and minus those it removed (a few squares' worth, against about 60 rows
/// afresh); the evaluation then takes the side to move's accumulator through the small layers.
/// Where the game cannot report a change, or the parent has none, the child's are computed afresh
/// (and a game without [`Knowledge::nnue_features_as`] is evaluated afresh at every leaf, as
/// [`evaluate`] does).
pub struct LearnedEval<'n> {
    net: &'n Net,
    /// Per ply: whether the accumulators hold that ply's state, and both seats' accumulators
    /// (`h1` values for seat 0, then `h1` for seat 1).
    plies: Vec<(bool, Vec<f32>)>,
    removed: [Vec<u16>; 2],
    added: [Vec<u16>; 2],
    buf: Vec<u16>,
}

impl<'n> LearnedEval<'n> {
    pub fn new(net: &'n Net) -> LearnedEval<'n> {
        LearnedEval {
            net,
            plies: Vec::new(),
            removed: [Vec::new(), Vec::new()],
            added: [Vec::new(), Vec::new()],
            buf: Vec::new(),
        }
    }

    fn ensure(&mut self, ply: usize) {
        while self.plies.len() <= ply {
            self.plies.push((false, vec![0.0; 2 * self.net.h1]));
        }
    }

    /// Computes the accumulators of `state` at `ply` afresh.
    fn refresh<G: Knowledge>(&mut self, ply: usize, state: &G) {
        self.ensure(ply);
        let h1 = self.net.h1;
        let (valid, acc) = &mut self.plies[ply];
        *valid = false;
        for p in 0..2u8 {
            self.buf.clear();
            if !state.nnue_features_as(tabula_core::Seat(p), &mut self.buf) {
                return;
            }
            let i = usize::from(p) * h1;
            self.net.accumulate(&self.buf, &mut acc[i..i + h1]);
        }
        *valid = true;
    }

    /// Seat `seat`'s accumulator at `ply`, when that ply's accumulators are up to date.
    pub fn accumulator(&self, ply: u32, seat: tabula_core::Seat) -> Option<&[f32]> {
        let (valid, acc) = self.plies.get(ply as usize)?;
        let h1 = self.net.h1;
        let i = seat.index().min(1) * h1;
        valid.then(|| &acc[i..i + h1])
    }
}

impl<G: Knowledge> crate::alphabeta::LeafEval<G> for LearnedEval<'_> {
    fn root(&mut self, state: &G) {
        self.refresh(0, state);
    }

    fn enter(&mut self, ply: u32, parent: &G, child: &G) {
        let (p, c) = (ply as usize, ply as usize + 1);
        self.ensure(c);
        for v in self.removed.iter_mut().chain(self.added.iter_mut()) {
            v.clear();
        }
        if !self.plies[p].0 || !child.nnue_delta(parent, &mut self.removed, &mut self.added) {
            self.refresh(c, child);
            return;
        }
        let h1 = self.net.h1;
        let (lo, hi) = self.plies.split_at_mut(c);
        let (valid, acc) = &mut hi[0];
        acc.copy_from_slice(&lo[p].1);
        for s in 0..2 {
            self.net.update_accumulator(
                &mut acc[s * h1..(s + 1) * h1],
                &self.removed[s],
                &self.added[s],
            );
        }
        *valid = true;
    }

    fn evaluate(&mut self, ply: u32, state: &G) -> Option<Vec<f64>> {
        if let tabula_core::ToAct::Seat(mover) = state.to_act()
            && state.seats() == 2
            && let Some(acc) = self.accumulator(ply, mover)
        {
            let p = f64::from(sigmoid(self.net.logit_from_accumulator(acc)));
            let mut v = vec![1.0 - p; 2];
            *v.get_mut(mover.index())? = p;
            return Some(v);
        }
        evaluate(self.net, state, &mut self.buf)
    }
}

/// Nets committed with the crate: `(game id, net file bytes)`. A game appears here only once its net
/// under `crates/ai/nets/` beats level 5 by the bar (none yet: `kyo.nnue` is committed as a
/// first, weak net for `--net`; see `crates/ai/nets/README.md`).
pub const BUILTIN: &[(&str, &[u8])] = &[];

fn installed() -> &'static RwLock<Vec<Arc<Net>>> {
    static NETS: OnceLock<RwLock<Vec<Arc<Net>>>> = OnceLock::new();
    NETS.get_or_init(|| RwLock::new(Vec::new()))
}

/// Makes `net` the net of its game for this process (it replaces an earlier one of that game).
pub fn install(net: Net) {
    let net = Arc::new(net);
    let mut nets = match installed().write() {
        Ok(n) => n,
        Err(poisoned) => poisoned.into_inner(),
    };
    nets.retain(|n| n.game != net.game);
    nets.push(net);
}

/// The net of game `G`: the one installed for it, else the committed one; an error when there is
/// none or it does not fit the game.
pub fn net_for<G: Knowledge>() -> Result<Arc<Net>, NetError> {
    let found = {
        let nets = match installed().read() {
            Ok(n) => n,
            Err(poisoned) => poisoned.into_inner(),
        };
        nets.iter().find(|n| n.game == G::ID).cloned()
    };
    let net = match found {
        Some(n) => n,
        None => {
            let bytes = BUILTIN
                .iter()
                .find(|(id, _)| *id == G::ID)
                .map(|(_, b)| *b)
                .ok_or_else(|| NetError::Missing(G::ID.to_string()))?;
            Arc::new(Net::from_bytes(bytes)?)
        }
    };
    net.check_game::<G>()?;
    Ok(net)
}

/// The perspective seat's expected score, as a training label, from an alpha-beta root value
/// (see [`crate::alphabeta`]: `(eval[root] − eval[other]) × 10 000`, or a won / lost game).
pub fn label_from_search(value: i32) -> f32 {
    if value >= crate::alphabeta::WIN - 1000 {
        1.0
    } else if value <= -crate::alphabeta::WIN + 1000 {
        0.0
    } else {
        (0.5 + f64::from(value) / 20_000.0).clamp(0.0, 1.0) as f32
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use tabula_core::{Game, Seat};

    use super::*;

    /// Without an installed or committed net, `net_for` (and so `level6`) is an error naming the
    /// game, never the hand-written evaluation in disguise; a game without features says so. (No
    /// unit test installs a net; the integration tests, which do, run in another process.)
    #[test]
    fn a_missing_net_is_an_error() {
        assert!(
            BUILTIN.iter().all(|(id, _)| *id != "kyo"),
            "update this test"
        );
        assert_eq!(
            net_for::<::kyo::Kyo>().err(),
            Some(NetError::Missing("kyo".into()))
        );
        assert_eq!(
            net_for::<::cyvasse::caird::CairdCyvasse>().err(),
            Some(NetError::Missing("cyvasse-caird".into()))
        );
        let state = ::kyo::Kyo::new(&Default::default()).unwrap();
        let info = crate::InfoSet::new(&state, Seat::new(0)).unwrap();
        let spec: crate::AgentSpec = "level6".parse().unwrap();
        assert_eq!(
            crate::decide(&spec, &info, 1).err(),
            Some(crate::AiError::Net(NetError::Missing("kyo".into())))
        );
    }
}
