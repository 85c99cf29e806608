//! The services together: what the transport layer serves. Each service is its own value; the live
//! games ([`Rooms`]) know none of the others, which use them.

use std::ops::Deref;
use std::sync::Arc;

use tabula_core::dynamic::Registry;

use crate::base::time::Clock;
use crate::services::accounts::Accounts;
use crate::services::analysis::{Analyses, Analyst};
use crate::services::chat::Chat;
use crate::services::limits::Limits;
use crate::services::rooms::ai::BotFn;
use crate::services::rooms::{Peers, Rooms};
use crate::storage::db::Db;

/// The server's services.
pub struct App {
    /// Live games: rooms, the writer, limits and indexes.
    pub rooms: Arc<Rooms>,
    /// Player accounts (sessions, sign-in limits, profiles).
    pub accounts: Arc<Accounts>,
    /// In-game chat.
    pub chat: Arc<Chat>,
    /// Analyses of finished games and hints.
    pub analyses: Arc<Analyses>,
}

impl App {
    /// The services over `db`; `peers` reach the other nodes of a cluster.
    pub fn new(
        registry: Registry,
        bot: BotFn,
        db: Db,
        limits: Limits,
        analyst: Option<Arc<dyn Analyst>>,
        peers: Arc<dyn Peers>,
        clock: Arc<dyn Clock>,
    ) -> App {
        let accounts = Arc::new(Accounts::new(db.clone(), limits.login));
        let chat = Arc::new(Chat::new(db.clone(), limits.chat));
        let rooms = Arc::new(Rooms::new(registry, bot, db, limits, peers, clock));
        let analyses = Arc::new(Analyses::new(rooms.clone(), analyst));
        App {
            rooms,
            accounts,
            chat,
            analyses,
        }
    }

    /// Follows the other nodes of a cluster (their commits and their chat messages), for the
    /// server's life; returns at once on a single node.
    pub async fn run_listener(&self) {
        let chat = self.chat.clone();
        self.rooms
            .clone()
            .run_listener(
                &[crate::services::chat::CLUSTER_CHANNEL],
                move |_, payload| {
                    let chat = chat.clone();
                    tokio::spawn(async move { chat.follow(&payload).await });
                },
            )
            .await;
    }

    /// Forgets what every service keeps only for a while (spent budgets, refilled limits).
    pub fn tidy(&self) {
        self.rooms.tidy_budgets();
        self.accounts.tidy();
        self.chat.tidy();
        self.analyses.tidy();
    }
}

/// The live games' operations are the ones most handlers use: `app.room(id)` reads as
/// `app.rooms.room(id)`.
impl Deref for App {
    type Target = Rooms;

    fn deref(&self) -> &Rooms {
        &self.rooms
    }
}
