-- +goose Up
-- The archive's newest games: a game's end writes what it adds to the
-- archive here, in the transaction of its result (about 60 narrow rows),
-- and the store's merger turns those rows into the counts of
-- archive_moves, archive_player_moves and archive_positions a moment
-- later, a few games a transaction. A game's rows in those big tables,
-- keyed by position, lie on some 200 pages of B-trees of a gigabyte; these
-- two tables stay small. The explorer, the repertoires and the search read
-- the big tables and these together.
--
-- archive_recent: one row per game waiting, with what its counts need:
-- winner is the seat that won, -1 for a draw; user0 and user1 the accounts
-- whose repertoires it joins (a seat claimed later joins through
-- archive_player_moves directly, a deleted account's seat is emptied).
CREATE TABLE archive_recent (
    game_id  TEXT PRIMARY KEY,
    source   TEXT NOT NULL,
    rated    INTEGER NOT NULL,
    speed    TEXT NOT NULL,
    band     INTEGER NOT NULL,
    rating   INTEGER NOT NULL,
    rating_n INTEGER NOT NULL,
    winner   INTEGER NOT NULL,
    ended    BIGINT NOT NULL,
    user0    TEXT NOT NULL,
    user1    TEXT NOT NULL
);

-- archive_recent_moves: each distinct move of the game from a position
-- (pos, the move in the canonical position's frame, the seat that made
-- it, the first ply it was made at), and the last position, when the game
-- reached it only at its end, with the move ''. A position's first ply in
-- the game is the least ply of its rows.
CREATE TABLE archive_recent_moves (
    game_id TEXT NOT NULL,
    pos     BIGINT NOT NULL,
    move    TEXT NOT NULL,
    seat    INTEGER NOT NULL,
    ply     INTEGER NOT NULL
);
CREATE INDEX archive_recent_moves_pos ON archive_recent_moves (pos);

-- +goose Down
-- The games waiting go into the big tables first: nothing counted is lost.
INSERT INTO archive_moves (pos, move, source, rated, speed, band, games, wins, draws, losses, rating_sum, rating_n, last_played)
    SELECT m.pos, m.move, r.source, r.rated, r.speed, r.band, COUNT(*),
        SUM(CASE WHEN r.winner = m.seat THEN 1 ELSE 0 END), SUM(CASE WHEN r.winner < 0 THEN 1 ELSE 0 END),
        SUM(CASE WHEN r.winner >= 0 AND r.winner <> m.seat THEN 1 ELSE 0 END), SUM(r.rating), SUM(r.rating_n), MAX(r.ended)
    FROM archive_recent_moves m JOIN archive_recent r ON r.game_id = m.game_id WHERE m.move <> ''
    GROUP BY m.pos, m.move, r.source, r.rated, r.speed, r.band
    ON CONFLICT (pos, move, source, rated, speed, band) DO UPDATE SET
    games = archive_moves.games + excluded.games, wins = archive_moves.wins + excluded.wins,
    draws = archive_moves.draws + excluded.draws, losses = archive_moves.losses + excluded.losses,
    rating_sum = archive_moves.rating_sum + excluded.rating_sum, rating_n = archive_moves.rating_n + excluded.rating_n,
    last_played = CASE WHEN excluded.last_played > archive_moves.last_played THEN excluded.last_played ELSE archive_moves.last_played END;
INSERT INTO archive_player_moves (user_id, pos, move, mine, games, wins, draws, losses, last_played)
    SELECT CASE WHEN s.seat = 0 THEN r.user0 ELSE r.user1 END, m.pos, m.move, CASE WHEN m.seat = s.seat THEN 1 ELSE 0 END, COUNT(*),
        SUM(CASE WHEN r.winner = s.seat THEN 1 ELSE 0 END), SUM(CASE WHEN r.winner < 0 THEN 1 ELSE 0 END),
        SUM(CASE WHEN r.winner >= 0 AND r.winner <> s.seat THEN 1 ELSE 0 END), MAX(r.ended)
    FROM archive_recent_moves m JOIN archive_recent r ON r.game_id = m.game_id
    JOIN (SELECT 0 AS seat UNION ALL SELECT 1) s ON (s.seat = 0 AND r.user0 <> '') OR (s.seat = 1 AND r.user1 <> '')
    WHERE m.move <> '' GROUP BY 1, 2, 3, 4
    ON CONFLICT (user_id, pos, move, mine) DO UPDATE SET
    games = archive_player_moves.games + excluded.games, wins = archive_player_moves.wins + excluded.wins,
    draws = archive_player_moves.draws + excluded.draws, losses = archive_player_moves.losses + excluded.losses,
    last_played = CASE WHEN excluded.last_played > archive_player_moves.last_played THEN excluded.last_played ELSE archive_player_moves.last_played END;
INSERT INTO archive_positions (pos, ended, game_id, ply)
    SELECT m.pos, r.ended, m.game_id, MIN(m.ply) FROM archive_recent_moves m JOIN archive_recent r ON r.game_id = m.game_id
    WHERE true GROUP BY m.pos, r.ended, m.game_id
    ON CONFLICT (pos, ended, game_id) DO NOTHING;
DROP TABLE archive_recent_moves;
DROP TABLE archive_recent;
