-- +goose Up
-- puzzle_plays: every attempt of an account at a puzzle, for its history
-- page (lichess's puzzle dashboard): solved or failed, whether it was
-- rated (only the first attempt at a puzzle is, see puzzle_attempts), the
-- puzzle rating after it and its change (0 when unrated). Attempts from
-- before this table are in puzzle_attempts and rating_history only.
CREATE TABLE puzzle_plays (
    user_id   TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    puzzle_id TEXT NOT NULL,
    game      TEXT NOT NULL,
    solved    INTEGER NOT NULL,
    rated     INTEGER NOT NULL,
    rating    DOUBLE PRECISION NOT NULL,
    diff      INTEGER NOT NULL,
    at        BIGINT NOT NULL,
    PRIMARY KEY (user_id, at, puzzle_id)
);

-- +goose Down
DROP TABLE puzzle_plays;
