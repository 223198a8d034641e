-- +goose Up
-- Puzzle ratings: each puzzle has a Glicko-2 rating that its solvers'
-- results move, as a player's does (a solve is the puzzle's loss); a
-- player's puzzle rating is in ratings, with the family 'puzzles'. Only
-- an account's first attempt at a puzzle counts.
CREATE TABLE puzzle_ratings (
    puzzle_id TEXT PRIMARY KEY,
    r         DOUBLE PRECISION NOT NULL,
    rd        DOUBLE PRECISION NOT NULL,
    vol       DOUBLE PRECISION NOT NULL,
    plays     INTEGER NOT NULL DEFAULT 0,
    solved    INTEGER NOT NULL DEFAULT 0,
    updated   BIGINT NOT NULL
);

CREATE TABLE puzzle_attempts (
    user_id   TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    puzzle_id TEXT NOT NULL,
    solved    INTEGER NOT NULL,
    at        BIGINT NOT NULL,
    PRIMARY KEY (user_id, puzzle_id)
);

-- +goose Down
DROP TABLE puzzle_attempts;
DROP TABLE puzzle_ratings;
