-- +goose Up
-- At the board: correspondence clocks (per_move: clock_initial is the
-- time for each move, given back in full after every move), a pending
-- takeback request (the side asking, or -1), and the games' chat.
ALTER TABLE games ADD COLUMN per_move INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN takeback_by INTEGER NOT NULL DEFAULT -1;
-- A guest's games in play, for the list of games where it is their turn
-- (an account's are found by games_user0/1).
CREATE INDEX games_guest0 ON games (guest0, updated) WHERE guest0 <> '';
CREATE INDEX games_guest1 ON games (guest1, updated) WHERE guest1 <> '';

-- One row per chat message, numbered within its game by the server that
-- runs the game. room is 'players' or 'spectators'; side is the writer's
-- side, -1 for a spectator.
CREATE TABLE chat (
    game_id TEXT NOT NULL,
    seq     INTEGER NOT NULL,
    room    TEXT NOT NULL,
    side    INTEGER NOT NULL,
    name    TEXT NOT NULL,
    body    TEXT NOT NULL,
    at      BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- +goose Down
DROP TABLE chat;
DROP INDEX games_guest1;
DROP INDEX games_guest0;
ALTER TABLE games DROP COLUMN takeback_by;
ALTER TABLE games DROP COLUMN per_move;
