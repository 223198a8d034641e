-- +goose Up
-- Which server instance runs each game in play. An instance's leases are
-- as alive as the instance: they hold while its heartbeat (the table
-- heartbeats, written every second) is recent, so that renewing them
-- writes one row, not one a game. Another instance takes a game over only
-- once its owner's heartbeat is old. A move, or any other change of a
-- game, is written only by the lease's holder, checked (and the lease's
-- row locked) in the same transaction, so two instances never both accept
-- moves for one game.
CREATE TABLE leases (
    game_id TEXT PRIMARY KEY,
    owner   TEXT NOT NULL
);
CREATE INDEX leases_owner ON leases (owner);

-- +goose Down
DROP TABLE leases;
