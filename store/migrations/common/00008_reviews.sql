-- +goose Up
-- Game reviews: the engine's evaluation of every position of a finished
-- game, computed in the background by one server instance. data holds
-- the evaluations so far (JSON, written by the server); done counts them
-- out of total; updated lets another instance take over a review whose
-- instance stopped.
CREATE TABLE reviews (
    game_id  TEXT PRIMARY KEY,
    status   TEXT NOT NULL,
    done     INTEGER NOT NULL,
    total    INTEGER NOT NULL,
    instance TEXT NOT NULL,
    updated  BIGINT NOT NULL,
    data     TEXT NOT NULL
);

-- +goose Down
DROP TABLE reviews;
