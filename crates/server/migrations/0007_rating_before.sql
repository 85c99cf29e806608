-- The rating each player had before a rated game, beside the one after it (`rating`, `rd`): the
-- game-over dialog and a finished game's page show the change ("1,512 (+12)"), and "my games" and
-- profiles the opponent's rating at the time. Rows written before this migration have none.
ALTER TABLE rating_history ADD COLUMN rating_before DOUBLE PRECISION;
ALTER TABLE rating_history ADD COLUMN rd_before DOUBLE PRECISION;
