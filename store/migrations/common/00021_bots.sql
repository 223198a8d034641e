-- +goose Up
-- Bot accounts and their API tokens (issue 31). bot is when the account
-- became a bot (ms since the epoch, 0 for a person): irreversible.
ALTER TABLE users ADD COLUMN bot BIGINT NOT NULL DEFAULT 0;
-- Each game's seats held by bots: bit 0 for the first, bit 1 the second.
ALTER TABLE games ADD COLUMN bots INTEGER NOT NULL DEFAULT 0;

-- API tokens: the SHA-256 of each token (never the token), its owner and
-- label, when it was made, last used (0 for never) and revoked (0 for not).
CREATE TABLE api_tokens (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    label      TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created    BIGINT NOT NULL,
    used       BIGINT NOT NULL DEFAULT 0,
    revoked    BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

-- Challenges to a named account: each is a waiting private game
-- (game_id) reserved for to_user, made by from_user; declined is when
-- the challenged declined it (0 for not).
CREATE TABLE challenges (
    game_id   TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    from_user TEXT NOT NULL,
    to_user   TEXT NOT NULL,
    created   BIGINT NOT NULL,
    declined  BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX challenges_to ON challenges (to_user, created);
CREATE INDEX challenges_from ON challenges (from_user, created);

-- +goose Down
DROP TABLE challenges;
DROP TABLE api_tokens;
ALTER TABLE games DROP COLUMN bots;
ALTER TABLE users DROP COLUMN bot;
