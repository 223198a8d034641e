-- +goose Up
-- The game archive and the opening explorer (package server/archive).
-- games.source is where a finished game comes from: '' for one played on
-- this site, else the source of an imported record ('boardspace', 'import').
ALTER TABLE games ADD COLUMN source TEXT NOT NULL DEFAULT '';
-- games.ended is when a game ended, written once by the write that ends it
-- (updated moves on with later writes, a rematch offer); for an imported
-- game, the day it was played.
ALTER TABLE games ADD COLUMN ended BIGINT NOT NULL DEFAULT 0;
UPDATE games SET ended = updated WHERE status = 'finished';

-- One row per game in the archive, written in the transaction that ends
-- the game (or imports it): its primary key is what makes the indexing
-- happen once, whichever path or instance ends the game.
CREATE TABLE archive_games (
    game_id  TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    rules    TEXT NOT NULL,
    source   TEXT NOT NULL,
    rated    INTEGER NOT NULL,
    speed    TEXT NOT NULL,
    band     INTEGER NOT NULL,
    rating   INTEGER NOT NULL,
    result   TEXT NOT NULL,
    ended    BIGINT NOT NULL,
    plies    INTEGER NOT NULL,
    user0    TEXT NOT NULL,
    user1    TEXT NOT NULL,
    name0    TEXT NOT NULL,
    name1    TEXT NOT NULL
);
CREATE INDEX archive_games_ended ON archive_games (ended, game_id);
CREATE INDEX archive_games_name0 ON archive_games (name0, ended);
CREATE INDEX archive_games_name1 ON archive_games (name1, ended);

-- The explorer's counts: for each position (pos, a hash of the game, its
-- rules and the position's canonical text up to the board's symmetries)
-- and each move played from it (in the canonical position's frame), per
-- source, rated or not, speed and rating band, the games and their results
-- from the view of the side that made the move.
CREATE TABLE archive_moves (
    pos         BIGINT NOT NULL,
    move        TEXT NOT NULL,
    source      TEXT NOT NULL,
    rated       INTEGER NOT NULL,
    speed       TEXT NOT NULL,
    band        INTEGER NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    losses      INTEGER NOT NULL,
    rating_sum  BIGINT NOT NULL,
    rating_n    INTEGER NOT NULL,
    last_played BIGINT NOT NULL,
    PRIMARY KEY (pos, move, source, rated, speed, band)
) WITHOUT ROWID;

-- An account's own explorer ("my repertoire"): the moves of its games from
-- each position, its own (mine = 1) and its opponents' (mine = 0), with
-- the results from the account's view.
CREATE TABLE archive_player_moves (
    user_id     TEXT NOT NULL,
    pos         BIGINT NOT NULL,
    move        TEXT NOT NULL,
    mine        INTEGER NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    losses      INTEGER NOT NULL,
    last_played BIGINT NOT NULL,
    PRIMARY KEY (user_id, pos, move, mine)
) WITHOUT ROWID;

-- Every game that reached a position (its first ply there), newest first.
CREATE TABLE archive_positions (
    pos     BIGINT NOT NULL,
    ended   BIGINT NOT NULL,
    game_id TEXT NOT NULL,
    ply     INTEGER NOT NULL,
    PRIMARY KEY (pos, ended, game_id)
) WITHOUT ROWID;

-- Imported records, by a hash of their moves, players and date: the same
-- record twice is refused.
CREATE TABLE archive_imports (
    record_key TEXT PRIMARY KEY,
    game_id    TEXT NOT NULL,
    source     TEXT NOT NULL,
    imported_by TEXT NOT NULL,
    imported_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE archive_imports;
DROP TABLE archive_positions;
DROP TABLE archive_player_moves;
DROP TABLE archive_moves;
DROP TABLE archive_games;
ALTER TABLE games DROP COLUMN ended;
ALTER TABLE games DROP COLUMN source;
