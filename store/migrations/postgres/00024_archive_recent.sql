-- +goose Up
-- The archive's newest rows: a game's end writes what it adds to the
-- explorer, the repertoires and the position search here, in its own
-- transaction, and the store's merger moves them into archive_moves,
-- archive_player_moves and archive_positions a moment later, a few games
-- a transaction. These tables stay small, so that the game's end writes a
-- handful of pages (the big tables' rows of a game, keyed by position,
-- lie on some 200 pages); the explorer and the search read both.
-- archive_recent lists the games whose rows are here: the merger's unit.
CREATE TABLE archive_recent (
    game_id TEXT PRIMARY KEY
);

CREATE TABLE archive_moves_recent (
    game_id     TEXT NOT NULL,
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
    last_played BIGINT NOT NULL
);
CREATE INDEX archive_moves_recent_pos ON archive_moves_recent (pos);

CREATE TABLE archive_player_moves_recent (
    game_id     TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    pos         BIGINT NOT NULL,
    move        TEXT NOT NULL,
    mine        INTEGER NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    losses      INTEGER NOT NULL,
    last_played BIGINT NOT NULL
);
CREATE INDEX archive_player_moves_recent_pos ON archive_player_moves_recent (user_id, pos);

CREATE TABLE archive_positions_recent (
    game_id TEXT NOT NULL,
    pos     BIGINT NOT NULL,
    ended   BIGINT NOT NULL,
    ply     INTEGER NOT NULL
);
CREATE INDEX archive_positions_recent_pos ON archive_positions_recent (pos);

-- +goose Down
-- The rows not merged yet go into the big tables first: nothing counted is lost.
INSERT INTO archive_moves (pos, move, source, rated, speed, band, games, wins, draws, losses, rating_sum, rating_n, last_played)
    SELECT pos, move, source, rated, speed, band, SUM(games), SUM(wins), SUM(draws), SUM(losses), SUM(rating_sum), SUM(rating_n), MAX(last_played)
    FROM archive_moves_recent WHERE true GROUP BY pos, move, source, rated, speed, band
    ON CONFLICT (pos, move, source, rated, speed, band) DO UPDATE SET
    games = archive_moves.games + excluded.games, wins = archive_moves.wins + excluded.wins,
    draws = archive_moves.draws + excluded.draws, losses = archive_moves.losses + excluded.losses,
    rating_sum = archive_moves.rating_sum + excluded.rating_sum, rating_n = archive_moves.rating_n + excluded.rating_n,
    last_played = CASE WHEN excluded.last_played > archive_moves.last_played THEN excluded.last_played ELSE archive_moves.last_played END;
INSERT INTO archive_player_moves (user_id, pos, move, mine, games, wins, draws, losses, last_played)
    SELECT user_id, pos, move, mine, SUM(games), SUM(wins), SUM(draws), SUM(losses), MAX(last_played)
    FROM archive_player_moves_recent WHERE true GROUP BY user_id, pos, move, mine
    ON CONFLICT (user_id, pos, move, mine) DO UPDATE SET
    games = archive_player_moves.games + excluded.games, wins = archive_player_moves.wins + excluded.wins,
    draws = archive_player_moves.draws + excluded.draws, losses = archive_player_moves.losses + excluded.losses,
    last_played = CASE WHEN excluded.last_played > archive_player_moves.last_played THEN excluded.last_played ELSE archive_player_moves.last_played END;
INSERT INTO archive_positions (pos, ended, game_id, ply)
    SELECT pos, ended, game_id, ply FROM archive_positions_recent WHERE true
    ON CONFLICT (pos, ended, game_id) DO NOTHING;
DROP TABLE archive_positions_recent;
DROP TABLE archive_player_moves_recent;
DROP TABLE archive_moves_recent;
DROP TABLE archive_recent;
