//! `tabula train data` and `tabula train net`: the learned evaluation's pipeline (issue 41), a thin
//! command-line layer over [`tabula_ai::nnue`].

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use tabula_ai::Knowledge;
use tabula_ai::games::{GameFn, with_game};
use tabula_ai::nnue::data::{self, DataSettings, GenProgress};
use tabula_ai::nnue::train::{self, Checkpoint, TrainSettings};
use tabula_ai::nnue::{FeatureSet, Net};

/// Make training data and train the learned evaluation (level 6).
#[derive(Args, Debug, Clone)]
#[command(after_long_help = TRAIN_HELP)]
pub struct TrainArgs {
    #[command(subcommand)]
    pub command: TrainCommand,
}

#[derive(Subcommand, Debug, Clone)]
pub enum TrainCommand {
    /// Play games and write positions labelled by a deep alpha-beta search (and the game's result).
    Data(DataArgs),
    /// Train a net on a data directory.
    Net(NetArgs),
}

const TRAIN_HELP: &str = "\
Reproducing a net (the committed first Kyo net, crates/ai/nets/kyo.nnue; see
crates/ai/nets/README.md):

  nice -n 19 tabula train data --game kyo --out /work/nnue-data/kyo --positions 13266 --seed 1 \\
      --label-nodes 10000 --play-nodes 1000
  tabula train net --game kyo --data /work/nnue-data/kyo --out crates/ai/nets/kyo.nnue --seed 1 --epochs 20
  tabula tournament --game kyo --agents level6,level5 --net crates/ai/nets/kyo.nnue \\
      --time-per-move 100 --games 400 --threads 1 --seed 1 --results kyo-level6.jsonl

Both commands resume: run the same command again and it continues (the data from its last finished
game, the training from its last finished epoch). Budgets are node counts, so the data and the net
are the same on any machine for the same settings and seed.";

/// `tabula train data`.
///
/// Game g of the data set is played from a seed derived from --seed and g: a random opening, then
/// alpha-beta with --play-nodes nodes per decision (a random action with probability --epsilon).
/// Positions at the start of a decision (not in the middle of a turn) are labelled with probability
/// --label-prob by an alpha-beta search of --label-nodes nodes (level 5 searches 60,000), which is
/// then played. Features come from what the acting seat sees. Positions go to DIR/positions.bin
/// once their game ends (its result is part of the label), and DIR/manifest.json counts them.
///
/// Stopping: kill the process at any time (SIGTERM or Ctrl-C); the unfinished game is dropped and
/// replayed by the next run of the same command, which continues the data set exactly.
#[derive(Args, Debug, Clone)]
pub struct DataArgs {
    /// The game id (a game with a feature set: kyo).
    #[arg(long)]
    pub game: String,
    /// The data directory (created; resumed when it holds a manifest).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Stop once the data set holds at least N positions.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub positions: u64,
    /// The data set's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Alpha-beta nodes of the labelling search (level 5: 60,000).
    #[arg(long, value_name = "N", default_value_t = 120_000)]
    pub label_nodes: u64,
    /// Deepest iteration of the labelling search, in actions.
    #[arg(long, value_name = "D", default_value_t = 64)]
    pub label_depth: u32,
    /// Alpha-beta nodes per decision of the moves that are not labelled.
    #[arg(long, value_name = "N", default_value_t = 4_000)]
    pub play_nodes: u64,
    /// Probability that an eligible position is labelled.
    #[arg(long, value_name = "P", default_value_t = 0.35)]
    pub label_prob: f64,
    /// Probability of a random action instead of the search's.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    pub epsilon: f64,
    /// Random actions at the start of each game: MIN..MAX, uniformly.
    #[arg(long, value_name = "MIN..MAX", default_value = "2..12")]
    pub opening: String,
    /// Actions after which a game is stopped and scored as a draw.
    #[arg(long, default_value_t = 1_500)]
    pub max_actions: u64,
}

/// `tabula train net`.
///
/// Trains the net (sparse inputs → accumulator of H1 → clipped ReLU → H2 → clipped ReLU → one
/// logit) with Adam on the binary cross-entropy against lambda × search label + (1 − lambda) ×
/// result, one thread, reproducible from --seed. A checkpoint FILE.ckpt is written after every
/// epoch; the same command run again resumes from it (a larger --epochs trains further). FILE is
/// the net (written after every epoch) and FILE.json its manifest (data, labels, budgets,
/// settings, seed, losses, the command).
#[derive(Args, Debug, Clone)]
pub struct NetArgs {
    /// The game id.
    #[arg(long)]
    pub game: String,
    /// The data directory written by `tabula train data`.
    #[arg(long, value_name = "DIR")]
    pub data: PathBuf,
    /// The net file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, default_value_t = 30)]
    pub epochs: u32,
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f32,
    /// Weight of the search label against the game's result.
    #[arg(long, default_value_t = 0.75)]
    pub lambda: f32,
    /// Accumulator size.
    #[arg(long, default_value_t = 32)]
    pub h1: usize,
    /// Second layer size.
    #[arg(long, default_value_t = 16)]
    pub h2: usize,
    /// Share of the positions held out for validation, in per cent.
    #[arg(long, default_value_t = 10)]
    pub validation: u32,
    /// Start afresh even when a checkpoint exists.
    #[arg(long)]
    pub fresh: bool,
}

fn command_line() -> String {
    std::env::args().collect::<Vec<_>>().join(" ")
}

fn permille(p: f64, name: &str) -> Result<u32> {
    if !(0.0..=1.0).contains(&p) {
        bail!("--{name} must be in 0..=1");
    }
    Ok((p * 1000.0).round() as u32)
}

fn parse_opening(s: &str) -> Result<(u32, u32)> {
    let (a, b) = s
        .split_once("..")
        .with_context(|| format!("--opening `{s}`: expected MIN..MAX"))?;
    let a: u32 = a
        .trim()
        .parse()
        .with_context(|| format!("--opening `{s}`"))?;
    let b: u32 = b
        .trim()
        .parse()
        .with_context(|| format!("--opening `{s}`"))?;
    if a > b || b > 200 {
        bail!("--opening `{s}`: MIN..MAX with MIN ≤ MAX ≤ 200");
    }
    Ok((a, b))
}

/// Runs `tabula train`.
pub fn train(args: &TrainArgs) -> Result<()> {
    match &args.command {
        TrainCommand::Data(a) => train_data(a),
        TrainCommand::Net(a) => train_net(a),
    }
}

fn bar(style: &str) -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(0);
        if let Ok(s) = ProgressStyle::with_template(style) {
            bar.set_style(s);
        }
        bar.enable_steady_tick(Duration::from_secs(1));
        bar
    })
}

fn train_data(args: &DataArgs) -> Result<()> {
    let (opening_min, opening_max) = parse_opening(&args.opening)?;
    let settings = DataSettings {
        seed: args.seed,
        play_nodes: args.play_nodes,
        label_nodes: args.label_nodes,
        label_depth: args.label_depth,
        opening_min,
        opening_max,
        epsilon_permille: permille(args.epsilon, "epsilon")?,
        label_permille: permille(args.label_prob, "label-prob")?,
        max_actions: args.max_actions,
    };
    struct Gen<'a> {
        args: &'a DataArgs,
        settings: DataSettings,
    }
    impl GameFn for Gen<'_> {
        type Output = Result<data::Manifest>;
        fn call<G: Knowledge>(self) -> Self::Output {
            let stop = AtomicBool::new(false);
            let bar = bar("{bar:30} {pos}/{len} positions  {elapsed_precise} (eta {eta})  {msg}");
            if let Some(b) = &bar {
                b.set_length(self.args.positions);
            }
            let mut last_line = std::time::Instant::now();
            let mut progress = |p: &GenProgress| {
                let msg = format!(
                    "{} games, {} in the game being played, {:.2} positions/s",
                    p.games, p.pending, p.rate
                );
                match &bar {
                    Some(b) => {
                        b.set_position(p.positions + p.pending);
                        b.set_message(msg);
                    }
                    None if p.pending == 0 || last_line.elapsed() >= Duration::from_secs(60) => {
                        last_line = std::time::Instant::now();
                        eprintln!("{} positions; {msg}", p.positions + p.pending);
                    }
                    None => {}
                }
            };
            let m = data::generate::<G>(
                &self.args.out,
                &self.settings,
                self.args.positions,
                &command_line(),
                &stop,
                &mut progress,
            );
            if let Some(b) = &bar {
                b.finish_and_clear();
            }
            Ok(m?)
        }
    }
    let m = with_game(&args.game, Gen { args, settings })
        .with_context(|| format!("unknown game `{}`", args.game))??;
    eprintln!(
        "{}: {} positions from {} games ({} stopped by the action limit)",
        args.out.display(),
        m.positions,
        m.games,
        m.capped_games
    );
    Ok(())
}

fn features_of(game: &str) -> Result<FeatureSet> {
    struct Fs;
    impl GameFn for Fs {
        type Output = Option<FeatureSet>;
        fn call<G: Knowledge>(self) -> Self::Output {
            G::NNUE_FEATURES
        }
    }
    with_game(game, Fs)
        .with_context(|| format!("unknown game `{game}`"))?
        .with_context(|| format!("game `{game}` has no feature set for a learned evaluation"))
}

fn checkpoint_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".ckpt");
    PathBuf::from(p)
}

fn manifest_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".json");
    PathBuf::from(p)
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

fn train_net(args: &NetArgs) -> Result<()> {
    let fs = features_of(&args.game)?;
    let (data_manifest, positions) = data::read_dir(&args.data)
        .with_context(|| format!("cannot read the data in {}", args.data.display()))?;
    if data_manifest.game != args.game || data_manifest.feature_set != fs.name {
        bail!(
            "{} holds data of {} ({}), not {} ({})",
            args.data.display(),
            data_manifest.game,
            data_manifest.feature_set,
            args.game,
            fs.name
        );
    }
    if positions.len() < 10 {
        bail!(
            "{} holds only {} positions",
            args.data.display(),
            positions.len()
        );
    }
    if !(1..=1024).contains(&args.h1) || !(1..=1024).contains(&args.h2) {
        bail!("--h1 and --h2 must be in 1..=1024");
    }
    if args.validation > 50 {
        bail!("--validation must be at most 50 (per cent)");
    }
    let settings = TrainSettings {
        seed: args.seed,
        epochs: args.epochs,
        batch: args.batch.max(1),
        lr: args.lr,
        lambda: args.lambda.clamp(0.0, 1.0),
        h1: args.h1,
        h2: args.h2,
        validation_percent: args.validation,
    };
    let n = positions.len() as u64;
    let ckpt_path = checkpoint_path(&args.out);
    let mut ckpt = match std::fs::read(&ckpt_path) {
        Ok(bytes) if !args.fresh => {
            let c = Checkpoint::from_bytes(&bytes)
                .with_context(|| format!("checkpoint {}", ckpt_path.display()))?;
            if let Err(why) = train::check_resume(&c, &settings, n) {
                bail!(
                    "{}: {why}; use the same settings and data, or --fresh to start again",
                    ckpt_path.display()
                );
            }
            eprintln!(
                "resuming {} after epoch {}",
                ckpt_path.display(),
                c.epochs_done
            );
            c
        }
        Ok(_) => train::start(&args.game, fs, &settings, n),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            train::start(&args.game, fs, &settings, n)
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", ckpt_path.display())),
    };
    let size = ckpt.net.to_bytes().len();
    eprintln!(
        "{} positions ({} for validation), {} weights ({size} bytes)",
        n,
        n * u64::from(settings.validation_percent) / 100,
        ckpt.net.parameters()
    );
    let bar = bar("{bar:30} epoch {pos}/{len}  {elapsed_precise} (eta {eta})  {msg}");
    if let Some(b) = &bar {
        b.set_length(u64::from(settings.epochs));
        b.set_position(u64::from(ckpt.epochs_done));
    }
    let command = command_line();
    let mut failure: Option<anyhow::Error> = None;
    train::train(&mut ckpt, &positions, &settings, &mut |c, stats| {
        let msg = format!(
            "train loss {:.4}, validation loss {:.4} (mse {:.4}), {:.1} s",
            stats.train_loss, stats.validation_loss, stats.validation_mse, stats.seconds
        );
        match &bar {
            Some(b) => {
                b.set_position(u64::from(stats.epoch));
                b.set_message(msg);
            }
            None => eprintln!("epoch {}: {msg}", stats.epoch),
        }
        let manifest = serde_json::json!({
            "game": args.game,
            "feature_set": fs.name,
            "net_bytes": c.net.to_bytes().len(),
            "architecture": format!("{} sparse inputs -> {} (clipped ReLU) -> {} (clipped ReLU) -> 1 (logistic)", fs.inputs, c.net.h1, c.net.h2),
            "data": {
                "dir": args.data.display().to_string(),
                "positions": data_manifest.positions,
                "games": data_manifest.games,
                "capped_games": data_manifest.capped_games,
                "bytes": data_manifest.bytes,
                "settings": data_manifest.settings,
                "labels": "lambda * search + (1 - lambda) * result; search = the side to move's expected score after alpha-beta with label_nodes nodes; result = the side to move's final score",
                "runs": data_manifest.runs,
            },
            "training": settings,
            "epochs_done": c.epochs_done,
            "steps": c.step,
            "history": c.history,
            "command": command,
        });
        let saved = write_atomic(&checkpoint_path(&args.out), &c.to_bytes())
            .and_then(|()| write_atomic(&args.out, &c.net.to_bytes()))
            .and_then(|()| {
                let text = serde_json::to_string_pretty(&manifest)? + "\n";
                write_atomic(&manifest_path(&args.out), text.as_bytes())
            });
        match saved {
            Ok(()) => true,
            Err(e) => {
                failure = Some(e);
                false
            }
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(e) = failure {
        return Err(e);
    }
    // The net as saved must load and evaluate as trained.
    let net = Net::load(&args.out)?;
    if net != ckpt.net {
        bail!(
            "{} does not read back as the trained net",
            args.out.display()
        );
    }
    if let Some(last) = ckpt.history.last() {
        eprintln!(
            "{}: epoch {}, train loss {:.4}, validation loss {:.4} (mse {:.4})",
            args.out.display(),
            last.epoch,
            last.train_loss,
            last.validation_loss,
            last.validation_mse
        );
    }
    Ok(())
}
