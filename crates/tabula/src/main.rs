//! `tabula` — play, inspect, test, benchmark and serve every Tabula game.
//!
//! Every subcommand works on any game through the engine core's type-erased registry, built from
//! the one list of the platform's games (`tabula_ai::games::registry`); none of them knows a
//! game's rules. Errors go to stderr as one line and the
//! exit status is 2 for bad input (clap's own usage errors exit with 2 as well).

/// `println!` that returns the write error instead of panicking (the `?` needs a function returning
/// `anyhow::Result`): output piped into a reader that stops early (`tabula moves … | head`) is a
/// broken pipe, which `main` ends quietly, not a panic.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}

/// `print!` with the same error handling as [`outln!`]; flushes, for prompts.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        write!(stdout, $($arg)*)?;
        stdout.flush()?
    }};
}

mod cmd_ai;
mod cmd_analyse;
mod cmd_core;
mod cmd_play;
mod cmd_serve;
mod cmd_train;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// jemalloc with background threads instead of the system allocator: the server's per-action work
/// (views, legal lists and their JSON) and the AI's searches allocate many small short-lived objects,
/// and its background threads give freed pages back to the OS once games leave memory (mimalloc, as
/// fast here, kept them); see BENCHMARKS.md, "The server's RSS under `tabula loadtest`".
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Tabula: fantasy war games — Cyvasse (two rule families), Kyo, Territories and Syba Chess 2.0 —
/// with exact rules, strong AI and a server for playing in the browser.
#[derive(Parser)]
#[command(name = "tabula", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the games: one game id per line, then its description and options.
    Games(cmd_core::GamesArgs),
    /// Print the initial state of a game as JSON.
    New(cmd_core::NewArgs),
    /// Print the legal actions of a state as a JSON array.
    Moves(cmd_core::MovesArgs),
    /// Apply one action to a state and print the new state as JSON.
    Apply(cmd_core::ApplyArgs),
    /// Count the leaves of the game tree to a depth (move-generation testing and speed).
    Perft(cmd_core::PerftArgs),
    /// Play random games and print their results and rate.
    Playout(cmd_core::PlayoutArgs),
    /// Verify a game record (JSON) and print the final position.
    Replay(cmd_core::ReplayArgs),
    /// Analyse a game record: each decision's winning chance before and after, the engine's
    /// preferred action, and inaccuracies, mistakes and blunders.
    Analyse(cmd_analyse::AnalyseArgs),
    /// Play a game in the terminal: hot-seat, optionally against the AI.
    Play(cmd_play::PlayArgs),
    /// Play a round-robin tournament between agents and print the standings.
    Tournament(cmd_ai::TournamentArgs),
    /// Measure playouts/s and AI search nodes/s per game.
    Bench(cmd_ai::BenchArgs),
    /// Make training data and train the learned evaluation (level 6).
    Train(cmd_train::TrainArgs),
    /// Run the game server (web UI, HTTP API and WebSocket).
    Serve(cmd_serve::ServeArgs),
    /// Load-test a running server on loopback (bounded in time and count).
    Loadtest(cmd_serve::LoadtestArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let registry = tabula_ai::games::registry();
    let result = match cli.command {
        Command::Games(args) => cmd_core::games(&args, &registry),
        Command::New(args) => cmd_core::new(&args, &registry),
        Command::Moves(args) => cmd_core::moves(&args, &registry),
        Command::Apply(args) => cmd_core::apply(&args, &registry),
        Command::Perft(args) => cmd_core::perft(&args, &registry),
        Command::Playout(args) => cmd_core::playout(&args, &registry),
        Command::Replay(args) => cmd_core::replay(&args, &registry),
        Command::Analyse(args) => cmd_analyse::analyse(&args, &registry),
        Command::Play(args) => cmd_play::play(&args, &registry),
        Command::Tournament(args) => cmd_ai::tournament(&args, &registry),
        Command::Bench(args) => cmd_ai::bench(&args, &registry),
        Command::Train(args) => cmd_train::train(&args),
        Command::Serve(args) => cmd_serve::serve(args, registry),
        Command::Loadtest(args) => cmd_serve::loadtest(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of our output went away (`| head`): nothing more to say, and nobody to say it to.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let message = format!("{e:#}").replace('\n', " ");
            eprintln!("tabula: error: {message}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
