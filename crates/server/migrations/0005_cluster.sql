-- Scale-out (issue 25): several nodes on one PostgreSQL database. Each live game is owned by one node
-- through a lease; every event records the node and lease epoch that wrote it. The same SQL for SQLite
-- and PostgreSQL (a SQLite database is served by one node: these tables stay empty and the columns NULL).

-- The nodes that serve (or served) the database: `address` is the URL other nodes forward requests to
-- (`--advertise`), `heartbeat_at` (ms since the epoch, the database's clock) its last sign of life.
CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    heartbeat_at BIGINT NOT NULL
);

-- Which node may write a game's events: the holder of the unexpired lease (`expires_at`, ms since the
-- epoch, the database's clock). Every takeover increments `epoch`.
CREATE TABLE leases (
    game_id TEXT PRIMARY KEY,
    node_id TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX leases_node ON leases (node_id);

-- The writer of each event (NULL: a single node, or written before scale-out).
ALTER TABLE events ADD COLUMN node_id TEXT;
ALTER TABLE events ADD COLUMN epoch BIGINT;
