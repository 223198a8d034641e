-- +goose Up
-- The lessons an account has solved, per game: a JSON list of lesson
-- ids (the front end's), merged with what a browser kept.
CREATE TABLE learn_progress (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    game    TEXT NOT NULL,
    solved  TEXT NOT NULL,
    updated BIGINT NOT NULL,
    PRIMARY KEY (user_id, game)
);

-- +goose Down
DROP TABLE learn_progress;
