-- +goose Up
-- One row per game: its settings, seats and its current state, kept up to
-- date with every move so that any server instance can resume it. The
-- same schema as SQLite's (migrations/sqlite), in PostgreSQL's terms.
CREATE TABLE games (
    id               TEXT PRIMARY KEY,
    game             TEXT NOT NULL,
    rules            TEXT NOT NULL,
    start            TEXT NOT NULL,
    opponent         TEXT NOT NULL,
    level            INTEGER NOT NULL DEFAULT 0,
    player0          TEXT NOT NULL DEFAULT '',
    player1          TEXT NOT NULL DEFAULT '',
    seat0            TEXT NOT NULL DEFAULT '',
    seat1            TEXT NOT NULL DEFAULT '',
    invite           TEXT NOT NULL DEFAULT '',
    public           INTEGER NOT NULL DEFAULT 0,
    status           TEXT NOT NULL,
    result           TEXT NOT NULL DEFAULT '*',
    reason           TEXT NOT NULL DEFAULT '',
    nmoves           INTEGER NOT NULL DEFAULT 0,
    position         TEXT NOT NULL,
    clock_initial    BIGINT NOT NULL DEFAULT 0,
    clock_increment  BIGINT NOT NULL DEFAULT 0,
    remaining0       BIGINT NOT NULL DEFAULT 0,
    remaining1       BIGINT NOT NULL DEFAULT 0,
    clock_at         BIGINT NOT NULL DEFAULT 0,
    draw_offer       INTEGER NOT NULL DEFAULT -1,
    rematch_by       INTEGER NOT NULL DEFAULT -1,
    rematch_game     TEXT NOT NULL DEFAULT '',
    rematch_of       TEXT NOT NULL DEFAULT '',
    created          BIGINT NOT NULL,
    updated          BIGINT NOT NULL
);
-- The lists: waiting and live games are few, and the archive pages through
-- finished ones; indexing those only keeps a move's write small.
CREATE INDEX games_finished ON games (updated, id) WHERE status = 'finished';
CREATE INDEX games_unfinished ON games (status) WHERE status = 'waiting' OR status = 'playing';

-- One row per move, in order.
CREATE TABLE moves (
    game_id   TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL,
    move      TEXT NOT NULL,
    played_at BIGINT NOT NULL,
    clock     BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, ply)
);

-- +goose Down
DROP TABLE moves;
DROP TABLE games;
