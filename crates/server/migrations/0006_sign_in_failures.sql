-- Failed sign-ins shared by the nodes of a cluster (issue 35): a name's failures and the failures of a
-- (name, address) are counted across nodes, not per node. Written and read only by cluster nodes
-- (a single server keeps them in memory: on SQLite the table stays empty). Rows older than the
-- failure memory are deleted as new ones come. The same SQL for SQLite and PostgreSQL.
CREATE TABLE sign_in_failures (
    name_key TEXT NOT NULL,
    address TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX sign_in_failures_name ON sign_in_failures (name_key, at_ms);
CREATE INDEX sign_in_failures_at ON sign_in_failures (at_ms);
