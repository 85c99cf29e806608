//! `tabula analyse`: the engine's review of a game record.

use anyhow::{Context, Result};
use clap::Args;
use comfy_table::{Table, presets::UTF8_FULL_CONDENSED};
use indicatif::{ProgressBar, ProgressStyle};
use tabula_ai::analysis::{self, AnalysisConfig, DecisionKind};
use tabula_core::dynamic::Registry;
use tabula_core::record::JsonRecord;

use crate::cmd_core::{print_json, read_json};

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The record JSON file (`-` for stdin), as `tabula play --record` or the server's record
    /// endpoint writes it.
    pub record: String,
    /// Search iterations that choose the preferred action at each decision.
    #[arg(long, default_value_t = analysis::DEFAULT_ITERATIONS, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub iterations: u32,
    /// Search iterations that estimate each of the preferred action and the action taken.
    #[arg(long, default_value_t = analysis::DEFAULT_ESTIMATE_ITERATIONS, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub estimate_iterations: u32,
    /// The analysis seed: the same record, budget and seed always give the same analysis.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print the analysis as JSON instead of tables.
    #[arg(long)]
    pub json: bool,
}

fn percent(v: Option<f64>) -> String {
    v.map_or_else(String::new, |v| format!("{:.0}%", v * 100.0))
}

pub fn analyse(args: &AnalyseArgs, registry: &Registry) -> Result<()> {
    let json = read_json(&args.record)?;
    let record: JsonRecord = serde_json::from_value(json)
        .with_context(|| format!("`{}` is not a game record", args.record))?;
    // The registry checks the record (game id, options, every action) and names what is wrong.
    let game = registry.get(&record.game)?;
    game.replay(&record, false)?;
    let cfg = AnalysisConfig {
        iterations: args.iterations,
        estimate_iterations: args.estimate_iterations,
        seed: args.seed,
    };
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template("analysing {bar:30} {pos}/{len} decisions, {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let result = analysis::analyse_json(&record, &cfg, &mut |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let result = result?;
    if args.json {
        return print_json(&serde_json::to_value(&result)?);
    }
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED).set_header([
        "ply",
        "seat",
        "action",
        "before",
        "after",
        "mark",
        "preferred",
    ]);
    for d in &result.decisions {
        let name = result
            .seats
            .get(d.seat.index())
            .map_or_else(|| d.seat.to_string(), |s| s.name.clone());
        let mark = match d.kind {
            DecisionKind::Judged => d.mark.map_or("", |m| m.name()).to_string(),
            DecisionKind::Forced => "(forced)".to_string(),
            DecisionKind::Setup => "(setup, not judged)".to_string(),
        };
        let preferred = match (&d.best_notation, &d.best) {
            (Some(n), Some(b)) if *b != d.action => n.clone(),
            (Some(_), Some(_)) => "=".to_string(),
            _ => String::new(),
        };
        table.add_row([
            (d.ply + 1).to_string(),
            name,
            d.notation.clone(),
            percent(d.before),
            percent(d.after),
            mark,
            preferred,
        ]);
    }
    outln!("{table}");
    let mut summary = Table::new();
    summary.load_preset(UTF8_FULL_CONDENSED).set_header([
        "seat",
        "judged",
        "inaccuracies",
        "mistakes",
        "blunders",
        "average drop",
    ]);
    for s in &result.seats {
        summary.add_row([
            s.name.clone(),
            s.judged.to_string(),
            s.inaccuracies.to_string(),
            s.mistakes.to_string(),
            s.blunders.to_string(),
            format!("{:.1} points", s.average_drop * 100.0),
        ]);
    }
    outln!("{summary}");
    let t = result.thresholds;
    outln!(
        "Winning chance of the acting seat (expected score where results are shared), from its own \
         information only; marks by the drop: inaccuracy ≥ {:.0}, mistake ≥ {:.0}, blunder ≥ {:.0} \
         points. Budget {} + 2 × {} iterations per decision, seed {}.",
        t.inaccuracy * 100.0,
        t.mistake * 100.0,
        t.blunder * 100.0,
        result.iterations,
        result.estimate_iterations,
        result.seed
    );
    Ok(())
}
