-- +goose Up
-- Accounts. name is as the player wrote it; name_key its lower-case form,
-- unique, so that names differ in more than case. password holds the
-- encoded Argon2id hash (parameters and salt included).
CREATE TABLE users (
    id       TEXT PRIMARY KEY,
    name     TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password TEXT NOT NULL,
    created  BIGINT NOT NULL
);

-- Logged-in browsers: the hash of each session's cookie token.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created    BIGINT NOT NULL,
    seen       BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

-- Who sat in each seat: an account's id, or the hash of a guest's token
-- (so that a guest who signs up takes the games along).
ALTER TABLE games ADD COLUMN user0 TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN user1 TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN guest0 TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN guest1 TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE games DROP COLUMN guest1;
ALTER TABLE games DROP COLUMN guest0;
ALTER TABLE games DROP COLUMN user1;
ALTER TABLE games DROP COLUMN user0;
DROP TABLE sessions;
DROP TABLE users;
