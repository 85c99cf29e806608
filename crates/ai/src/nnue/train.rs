//! The trainer of the learned evaluation: mini-batch Adam on the fixed architecture of
//! [`super::Net`] (sparse inputs → accumulator → clipped ReLU → dense → clipped ReLU → one logit),
//! minimising the binary cross-entropy between the net's score and the blended target
//! `lambda × search label + (1 − lambda) × result`.
//!
//! Hand-written rather than a training library (burn, candle, PyTorch): the architecture is fixed
//! and tiny (about 100,000 weights, a forward and a backward pass are a few hundred lines), and the
//! first layer is sparse (about 60 active rows of 3,244 for Kyo), which a dense library layer would
//! multiply in full; a library would also add hundreds of crates to CI's build. The gradients are
//! checked against finite differences in the tests.
//!
//! **Reproducible**: one thread, the initial weights, the validation split and every epoch's order
//! drawn from the seed; the same data, settings and seed give bit-identical nets.
//! **Resumable**: a [`Checkpoint`] (net, Adam moments, step, epochs done, loss history) is written
//! after every epoch; training resumed from it gives the same net as an uninterrupted run.

use serde::{Deserialize, Serialize};
use tabula_core::rand::RngExt;
use tabula_core::rand::seq::SliceRandom;

use super::data::Position;
use super::{FeatureSet, Net, NetError, Reader, fnv1a, put_f32s, put_string, sigmoid};
use crate::knowledge::stable_hash;

/// The training settings (stored in checkpoints and net manifests).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainSettings {
    pub seed: u64,
    pub epochs: u32,
    pub batch: usize,
    pub lr: f32,
    /// Weight of the search label against the game's result in the target.
    pub lambda: f32,
    pub h1: usize,
    pub h2: usize,
    /// Share of the positions held out for validation, in per cent.
    pub validation_percent: u32,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            seed: 1,
            epochs: 30,
            batch: 256,
            lr: 1e-3,
            lambda: 0.75,
            h1: 32,
            h2: 16,
            validation_percent: 10,
        }
    }
}

impl TrainSettings {
    /// The settings that must not change between a checkpoint and its resumption (all but the
    /// number of epochs, which may grow).
    fn key(&self) -> String {
        format!(
            "seed={} batch={} lr={} lambda={} h1={} h2={} val={}",
            self.seed, self.batch, self.lr, self.lambda, self.h1, self.h2, self.validation_percent
        )
    }
}

/// One epoch's losses (mean binary cross-entropy against the target; mean squared error of the
/// score against the target).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EpochStats {
    pub epoch: u32,
    pub train_loss: f64,
    pub validation_loss: f64,
    pub validation_mse: f64,
    pub seconds: f64,
}

/// A training run's state after some epochs.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    pub net: Net,
    /// Adam's first and second moments, in the order of the trainer's `params`.
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub step: u64,
    pub epochs_done: u32,
    pub settings_key: String,
    /// The number of positions trained on (a checkpoint resumes only on the same data).
    pub positions: u64,
    pub history: Vec<EpochStats>,
}

const CKPT_MAGIC: &[u8; 8] = b"TBNNCK01";

impl Checkpoint {
    /// The checkpoint file's bytes: magic, settings key, positions, step, epochs, history (JSON),
    /// the net file, the moments, an FNV-1a 64 checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(CKPT_MAGIC);
        put_string(&mut out, &self.settings_key);
        out.extend_from_slice(&self.positions.to_le_bytes());
        out.extend_from_slice(&self.step.to_le_bytes());
        out.extend_from_slice(&self.epochs_done.to_le_bytes());
        let history = serde_json::to_string(&self.history).unwrap_or_else(|_| "[]".into());
        out.extend_from_slice(&(history.len() as u64).to_le_bytes());
        out.extend_from_slice(history.as_bytes());
        let net = self.net.to_bytes();
        out.extend_from_slice(&(net.len() as u64).to_le_bytes());
        out.extend_from_slice(&net);
        put_f32s(&mut out, &self.m);
        put_f32s(&mut out, &self.v);
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Parses [`Checkpoint::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, NetError> {
        if bytes.len() < 16 || &bytes[..8] != CKPT_MAGIC {
            return Err(NetError::Corrupt("not a training checkpoint".into()));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut s = [0u8; 8];
        s.copy_from_slice(sum);
        if fnv1a(body) != u64::from_le_bytes(s) {
            return Err(NetError::Corrupt("checkpoint checksum mismatch".into()));
        }
        let mut r = Reader::new(body);
        r.take(8)?;
        let settings_key = r.string()?;
        let positions = r.u64()?;
        let step = r.u64()?;
        let epochs_done = r.u32()?;
        let hlen = usize::try_from(r.u64()?).map_err(|e| NetError::Corrupt(e.to_string()))?;
        let history: Vec<EpochStats> = serde_json::from_slice(r.take(hlen)?)
            .map_err(|e| NetError::Corrupt(format!("checkpoint history: {e}")))?;
        let nlen = usize::try_from(r.u64()?).map_err(|e| NetError::Corrupt(e.to_string()))?;
        let net = Net::from_bytes(r.take(nlen)?)?;
        let n = net.parameters();
        let m = r.f32s(n)?;
        let v = r.f32s(n)?;
        if r.rest() != 0 {
            return Err(NetError::Corrupt("bytes after the checkpoint".into()));
        }
        Ok(Checkpoint {
            net,
            m,
            v,
            step,
            epochs_done,
            settings_key,
            positions,
            history,
        })
    }
}

/// Every weight of `net` as mutable slices, in a fixed order (w1, b1, w2, b2, w3, b3).
fn params(net: &mut Net) -> [&mut [f32]; 6] {
    [
        &mut net.w1,
        &mut net.b1,
        &mut net.w2,
        &mut net.b2,
        &mut net.w3,
        std::slice::from_mut(&mut net.b3),
    ]
}

/// A fresh net for `game` with weights drawn from `seed`.
pub fn init_net(game: &str, features: FeatureSet, settings: &TrainSettings) -> Net {
    let mut net = Net::zeros(game, features, settings.h1.max(1), settings.h2.max(1));
    let mut rng = tabula_core::rng_from_seed(stable_hash(&(settings.seed, "nnue-init")));
    let mut uniform = |v: &mut [f32], a: f32| {
        for x in v {
            *x = (rng.random::<f32>() * 2.0 - 1.0) * a;
        }
    };
    uniform(&mut net.w1, 0.1);
    uniform(&mut net.w2, 1.0 / (net.h1 as f32).sqrt());
    uniform(&mut net.w3, 1.0 / (net.h2 as f32).sqrt());
    for b in &mut net.b1 {
        *b = 0.25;
    }
    for b in &mut net.b2 {
        *b = 0.25;
    }
    net
}

/// A fresh checkpoint (epoch 0) for training `settings` on `positions` positions.
pub fn start(
    game: &str,
    features: FeatureSet,
    settings: &TrainSettings,
    positions: u64,
) -> Checkpoint {
    let net = init_net(game, features, settings);
    let n = net.parameters();
    Checkpoint {
        net,
        m: vec![0.0; n],
        v: vec![0.0; n],
        step: 0,
        epochs_done: 0,
        settings_key: settings.key(),
        positions,
        history: Vec::new(),
    }
}

/// Whether `ckpt` may be resumed with `settings` on `positions` positions (else why not).
pub fn check_resume(
    ckpt: &Checkpoint,
    settings: &TrainSettings,
    positions: u64,
) -> Result<(), String> {
    if ckpt.settings_key != settings.key() {
        return Err(format!(
            "the checkpoint was made with other settings ({})",
            ckpt.settings_key
        ));
    }
    if ckpt.positions != positions {
        return Err(format!(
            "the checkpoint was trained on {} positions, the data now holds {positions}",
            ckpt.positions
        ));
    }
    Ok(())
}

/// The forward pass of one position, keeping what the backward pass needs.
struct Forward {
    acc: Vec<f32>,
    z2: Vec<f32>,
    logit: f32,
}

fn forward(net: &Net, features: &[u16]) -> Forward {
    let mut acc = net.b1.clone();
    for &f in features {
        let f = usize::from(f);
        if f < net.inputs {
            for (a, w) in acc.iter_mut().zip(&net.w1[f * net.h1..(f + 1) * net.h1]) {
                *a += w;
            }
        }
    }
    let mut z2 = net.b2.clone();
    let mut logit = net.b3;
    for (j, z) in z2.iter_mut().enumerate() {
        let row = &net.w2[j * net.h1..(j + 1) * net.h1];
        *z += row
            .iter()
            .zip(&acc)
            .map(|(w, a)| w * a.clamp(0.0, 1.0))
            .sum::<f32>();
        logit += net.w3[j] * z.clamp(0.0, 1.0);
    }
    Forward { acc, z2, logit }
}

/// The net's logit for `features` as the trainer computes it (the same as [`Net::logit`] up to
/// float rounding).
pub fn train_logit(net: &Net, features: &[u16]) -> f32 {
    forward(net, features).logit
}

/// Binary cross-entropy of the score `p` against the target `t`.
fn bce(p: f32, t: f32) -> f64 {
    let p = f64::from(p).clamp(1e-7, 1.0 - 1e-7);
    let t = f64::from(t);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// Adds the gradient of the loss of one position (target `t`) to `g` and returns the loss.
fn backward(net: &Net, features: &[u16], t: f32, g: &mut Net) -> f64 {
    let fw = forward(net, features);
    let p = sigmoid(fw.logit);
    let d = p - t;
    g.b3 += d;
    let mut da1 = vec![0f32; net.h1];
    for j in 0..net.h2 {
        let z = fw.z2[j];
        let a2 = z.clamp(0.0, 1.0);
        g.w3[j] += d * a2;
        if z > 0.0 && z < 1.0 {
            let dz = d * net.w3[j];
            g.b2[j] += dz;
            let row = &net.w2[j * net.h1..(j + 1) * net.h1];
            let grow = &mut g.w2[j * net.h1..(j + 1) * net.h1];
            for i in 0..net.h1 {
                grow[i] += dz * fw.acc[i].clamp(0.0, 1.0);
                da1[i] += dz * row[i];
            }
        }
    }
    for (i, x) in da1.iter_mut().enumerate() {
        let a = fw.acc[i];
        if !(a > 0.0 && a < 1.0) {
            *x = 0.0;
        }
    }
    for (b, x) in g.b1.iter_mut().zip(&da1) {
        *b += x;
    }
    for &f in features {
        let f = usize::from(f);
        if f < net.inputs {
            for (w, x) in g.w1[f * net.h1..(f + 1) * net.h1].iter_mut().zip(&da1) {
                *w += x;
            }
        }
    }
    bce(p, t)
}

/// The mean loss of `net` over `positions` (binary cross-entropy, squared error).
pub fn evaluate_loss(net: &Net, positions: &[&Position], lambda: f32) -> (f64, f64) {
    if positions.is_empty() {
        return (0.0, 0.0);
    }
    let (mut l, mut e) = (0.0, 0.0);
    for p in positions {
        let t = p.target(lambda);
        let s = sigmoid(forward(net, &p.features).logit);
        l += bce(s, t);
        e += f64::from(s - t).powi(2);
    }
    (l / positions.len() as f64, e / positions.len() as f64)
}

/// The split of `n` positions into training and validation indices (drawn from the seed).
pub fn split(n: usize, settings: &TrainSettings) -> (Vec<usize>, Vec<usize>) {
    let mut idx: Vec<usize> = (0..n).collect();
    let mut rng = tabula_core::rng_from_seed(stable_hash(&(settings.seed, "nnue-split")));
    idx.shuffle(&mut rng);
    let val = n * settings.validation_percent.min(90) as usize / 100;
    let validation = idx.split_off(n - val);
    (idx, validation)
}

/// Trains `ckpt` on `positions` until `settings.epochs` epochs are done or `on_epoch` returns
/// `false`; `on_epoch` gets every finished epoch's checkpoint (to save it) and stats.
pub fn train(
    ckpt: &mut Checkpoint,
    positions: &[Position],
    settings: &TrainSettings,
    on_epoch: &mut dyn FnMut(&Checkpoint, &EpochStats) -> bool,
) {
    let (train_idx, val_idx) = split(positions.len(), settings);
    let validation: Vec<&Position> = val_idx.iter().map(|&i| &positions[i]).collect();
    let batch = settings.batch.max(1);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut grad = Net::zeros(
        &ckpt.net.game,
        FeatureSet {
            name: "",
            inputs: ckpt.net.inputs,
        },
        ckpt.net.h1,
        ckpt.net.h2,
    );
    while ckpt.epochs_done < settings.epochs {
        let started = std::time::Instant::now();
        let epoch = ckpt.epochs_done + 1;
        let mut order = train_idx.clone();
        let mut rng =
            tabula_core::rng_from_seed(stable_hash(&(settings.seed, epoch, "nnue-epoch")));
        order.shuffle(&mut rng);
        let mut total = 0.0;
        for chunk in order.chunks(batch) {
            for g in params(&mut grad) {
                g.fill(0.0);
            }
            for &i in chunk {
                let p = &positions[i];
                total += backward(&ckpt.net, &p.features, p.target(settings.lambda), &mut grad);
            }
            ckpt.step += 1;
            let scale = 1.0 / chunk.len() as f32;
            let t = ckpt.step as i32;
            let c1 = 1.0 - b1.powi(t);
            let c2 = 1.0 - b2.powi(t);
            let mut k = 0usize;
            let grads = params(&mut grad);
            for (w, g) in params(&mut ckpt.net).into_iter().zip(grads) {
                for (wi, gi) in w.iter_mut().zip(g.iter()) {
                    let gi = gi * scale;
                    let m = &mut ckpt.m[k];
                    let v = &mut ckpt.v[k];
                    *m = b1 * *m + (1.0 - b1) * gi;
                    *v = b2 * *v + (1.0 - b2) * gi * gi;
                    *wi -= settings.lr * (*m / c1) / ((*v / c2).sqrt() + eps);
                    k += 1;
                }
            }
        }
        let (vl, vm) = evaluate_loss(&ckpt.net, &validation, settings.lambda);
        let stats = EpochStats {
            epoch,
            train_loss: total / order.len().max(1) as f64,
            validation_loss: vl,
            validation_mse: vm,
            seconds: started.elapsed().as_secs_f64(),
        };
        ckpt.epochs_done = epoch;
        ckpt.history.push(stats.clone());
        if !on_epoch(ckpt, &stats) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    const FS: FeatureSet = FeatureSet {
        name: "test",
        inputs: 40,
    };

    /// The backward pass's gradient of every weight matches a finite difference of the loss.
    #[test]
    fn gradients_match_finite_differences() {
        let settings = TrainSettings {
            h1: 6,
            h2: 4,
            ..TrainSettings::default()
        };
        let mut net = init_net("test", FS, &settings);
        // Keep every unit away from the clipping edges, where the loss has kinks.
        for b in &mut net.b1 {
            *b = 0.5;
        }
        for b in &mut net.b2 {
            *b = 0.5;
        }
        for w in &mut net.w2 {
            *w *= 0.2;
        }
        let features = [1u16, 7, 7, 22, 39];
        let t = 0.8;
        let mut g = Net::zeros("test", FS, 6, 4);
        backward(&net, &features, t, &mut g);
        let loss = |n: &Net| bce(sigmoid(forward(n, &features).logit), t);
        let analytic: Vec<f32> = params(&mut g).iter().flat_map(|s| s.to_vec()).collect();
        let h = 1e-3f32;
        let mut k = 0;
        let mut checked = 0;
        for part in 0..6 {
            let len = params(&mut net.clone())[part].len();
            for i in 0..len {
                let mut plus = net.clone();
                params(&mut plus)[part][i] += h;
                let mut minus = net.clone();
                params(&mut minus)[part][i] -= h;
                let numeric = ((loss(&plus) - loss(&minus)) / (2.0 * f64::from(h))) as f32;
                assert!(
                    (numeric - analytic[k]).abs() < 2e-3,
                    "weight {part}/{i}: numeric {numeric}, analytic {}",
                    analytic[k]
                );
                if analytic[k].abs() > 1e-4 {
                    checked += 1;
                }
                k += 1;
            }
        }
        // Rows of inactive features have no gradient; the active ones and the dense layers do.
        assert!(checked > 30, "only {checked} non-zero gradients checked");
    }

    #[test]
    fn a_checkpoint_round_trips_and_rejects_corruption() {
        let settings = TrainSettings {
            h1: 4,
            h2: 2,
            ..TrainSettings::default()
        };
        let mut ckpt = start("test", FS, &settings, 10);
        ckpt.history.push(EpochStats {
            epoch: 1,
            train_loss: 0.5,
            validation_loss: 0.6,
            validation_mse: 0.1,
            seconds: 0.0,
        });
        ckpt.m[3] = 0.25;
        let bytes = ckpt.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), ckpt);
        let mut bad = bytes.clone();
        bad[40] ^= 1;
        assert!(Checkpoint::from_bytes(&bad).is_err());
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 3]).is_err());
        let other = TrainSettings {
            lr: 0.5,
            ..settings.clone()
        };
        assert!(check_resume(&ckpt, &settings, 10).is_ok());
        assert!(check_resume(&ckpt, &other, 10).is_err());
        assert!(check_resume(&ckpt, &settings, 11).is_err());
    }
}
