-- +goose Up
-- Tournaments (package tournament has their rules): an arena (a time
-- window, ends), a Swiss or a round robin (rounds). status is 'created'
-- (entries open, not begun), 'started' or 'finished'. director names the
-- server instance that pairs it: a lease like a game's (00004), alive as
-- long as the instance's heartbeat, taken over once the holder is dead;
-- every write of the director checks it in its transaction.
CREATE TABLE tournaments (
    id        TEXT PRIMARY KEY,
    name      TEXT NOT NULL,
    game      TEXT NOT NULL,
    rules     TEXT NOT NULL,
    format    TEXT NOT NULL,
    clock     TEXT NOT NULL,
    rated     INTEGER NOT NULL DEFAULT 0,
    bots      INTEGER NOT NULL DEFAULT 0,
    creator   TEXT NOT NULL,
    status    TEXT NOT NULL,
    starts    BIGINT NOT NULL,
    ends      BIGINT NOT NULL DEFAULT 0,
    rounds    INTEGER NOT NULL DEFAULT 0,
    round_no  INTEGER NOT NULL DEFAULT 0,
    winner    TEXT NOT NULL DEFAULT '',
    director  TEXT NOT NULL DEFAULT '',
    created   BIGINT NOT NULL,
    finished  BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX tournaments_status ON tournaments (status, starts);
CREATE INDEX tournaments_creator ON tournaments (creator, status);
CREATE INDEX tournaments_winner ON tournaments (winner) WHERE winner <> '';

-- The players of each tournament: their rating when they entered (for
-- the pairings), whether they withdrew or (arena) pause, and the first
-- round they can be paired in (a late join in a Swiss).
CREATE TABLE tournament_entries (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       TEXT NOT NULL,
    rating        INTEGER NOT NULL,
    withdrawn     INTEGER NOT NULL DEFAULT 0,
    paused        INTEGER NOT NULL DEFAULT 0,
    joined_round  INTEGER NOT NULL DEFAULT 1,
    joined        BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

-- The pairings, numbered in order (seq) within a tournament; round_no 0
-- in an arena. A Swiss's or round robin's player is first of at most one
-- pairing a round (the unique index), so a director taken over mid-way
-- cannot pair a round twice; a pairing and its game are written in one
-- transaction. result: 0 pending, 1 first wins, 2 second wins, 3 draw
-- (tournament.Result). second is '' for a bye.
CREATE TABLE tournament_pairings (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL,
    round_no      INTEGER NOT NULL,
    first_id      TEXT NOT NULL,
    second_id     TEXT NOT NULL DEFAULT '',
    game_id       TEXT NOT NULL DEFAULT '',
    result        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, seq)
);
CREATE UNIQUE INDEX tournament_pairings_round ON tournament_pairings (tournament_id, round_no, first_id) WHERE round_no > 0;

-- The tournament a game was made by ('' for none).
ALTER TABLE games ADD COLUMN tournament_id TEXT NOT NULL DEFAULT '';
CREATE INDEX games_tournament ON games (tournament_id) WHERE tournament_id <> '';

-- +goose Down
DROP INDEX games_tournament;
ALTER TABLE games DROP COLUMN tournament_id;
DROP TABLE tournament_pairings;
DROP TABLE tournament_entries;
DROP TABLE tournaments;
