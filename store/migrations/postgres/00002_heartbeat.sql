-- +goose Up
-- The last time each server instance was known to be alive, written every
-- second: after a crash, the running clocks are charged up to that time
-- and no further.
CREATE TABLE heartbeats (
    instance TEXT PRIMARY KEY,
    at       BIGINT NOT NULL
);

-- +goose Down
DROP TABLE heartbeats;
