-- +goose Up
-- Rated games and Glicko-2 ratings. A rated game records its rating
-- family (the name of the variant its rules are), each player's rating
-- when it began (as shown: "1500?"), the change it made once it ended,
-- and the bounds a joiner's rating must keep. rating_done is set in the
-- transaction that applies a game's result to the ratings, so that it is
-- applied once.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN family TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN rating0 TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN rating1 TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN diff0 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN diff1 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN min_rating INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN max_rating INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rating_done INTEGER NOT NULL DEFAULT 0;
-- A player's games, for the profile.
CREATE INDEX games_user0 ON games (user0, updated) WHERE user0 <> '';
CREATE INDEX games_user1 ON games (user1, updated) WHERE user1 <> '';

-- One rating per account, game and family.
CREATE TABLE ratings (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    game    TEXT NOT NULL,
    family  TEXT NOT NULL,
    r       DOUBLE PRECISION NOT NULL,
    rd      DOUBLE PRECISION NOT NULL,
    vol     DOUBLE PRECISION NOT NULL,
    games   INTEGER NOT NULL DEFAULT 0,
    wins    INTEGER NOT NULL DEFAULT 0,
    draws   INTEGER NOT NULL DEFAULT 0,
    losses  INTEGER NOT NULL DEFAULT 0,
    updated BIGINT NOT NULL,
    PRIMARY KEY (user_id, game, family)
);
CREATE INDEX ratings_board ON ratings (game, family, r);

-- Each rated game's effect on each player's rating, for the graph.
CREATE TABLE rating_history (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    game    TEXT NOT NULL,
    family  TEXT NOT NULL,
    game_id TEXT NOT NULL,
    at      BIGINT NOT NULL,
    r       DOUBLE PRECISION NOT NULL,
    rd      DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, game, family, game_id)
);

-- +goose Down
DROP TABLE rating_history;
DROP TABLE ratings;
DROP INDEX games_user1;
DROP INDEX games_user0;
ALTER TABLE games DROP COLUMN rating_done;
ALTER TABLE games DROP COLUMN max_rating;
ALTER TABLE games DROP COLUMN min_rating;
ALTER TABLE games DROP COLUMN diff1;
ALTER TABLE games DROP COLUMN diff0;
ALTER TABLE games DROP COLUMN rating1;
ALTER TABLE games DROP COLUMN rating0;
ALTER TABLE games DROP COLUMN family;
ALTER TABLE games DROP COLUMN rated;
