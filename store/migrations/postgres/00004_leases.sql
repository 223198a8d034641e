-- +goose Up
-- Which server instance runs each game in play: the owner holds the lease
-- until expires (ms since the epoch) and renews it every few seconds;
-- another instance takes a game over only once its lease has expired. A
-- move, or any other change of a game, is written only by the lease's
-- holder, checked in the same transaction, so two instances never both
-- accept moves for one game.
CREATE TABLE leases (
    game_id TEXT PRIMARY KEY,
    owner   TEXT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE INDEX leases_owner ON leases (owner);

-- +goose Down
DROP TABLE leases;
