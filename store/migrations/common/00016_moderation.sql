-- +goose Up
-- Moderation. An account's standing: its role ('' or 'moderator'), until
-- when it is muted (ms since the epoch, 0 for not), when it was banned or
-- closed by a moderator (0 for not), and the reason it is told.
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN muted_until BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN banned BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN closed BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN sanction_reason TEXT NOT NULL DEFAULT '';

-- Reports of a player, a game or a chat line (chat_seq, -1 for none),
-- by an account or a guest (reporter: its id or guest hash; the system's
-- own flags have the reporter 'system'). target is the account reported
-- ('' for a guest, named in target_name).
CREATE TABLE reports (
    id            TEXT PRIMARY KEY,
    reporter      TEXT NOT NULL,
    reporter_name TEXT NOT NULL,
    target        TEXT NOT NULL,
    target_name   TEXT NOT NULL,
    game_id       TEXT NOT NULL DEFAULT '',
    chat_seq      INTEGER NOT NULL DEFAULT -1,
    reason        TEXT NOT NULL,
    text          TEXT NOT NULL DEFAULT '',
    created       BIGINT NOT NULL,
    closed        BIGINT NOT NULL DEFAULT 0,
    closed_by     TEXT NOT NULL DEFAULT '',
    outcome       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX reports_open ON reports (closed, created);

-- Who blocks whom: no chat, no challenges, no pairing between them.
CREATE TABLE blocks (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    blocked TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created BIGINT NOT NULL,
    PRIMARY KEY (user_id, blocked)
);

-- Every moderator's action.
CREATE TABLE mod_log (
    id          TEXT PRIMARY KEY,
    moderator   TEXT NOT NULL,
    action      TEXT NOT NULL,
    target      TEXT NOT NULL DEFAULT '',
    target_name TEXT NOT NULL DEFAULT '',
    game_id     TEXT NOT NULL DEFAULT '',
    reason      TEXT NOT NULL DEFAULT '',
    at          BIGINT NOT NULL
);
CREATE INDEX mod_log_at ON mod_log (at);

-- Where each account was seen (an address, a browser's guest token hash),
-- for the flags of rated games between accounts that share one.
CREATE TABLE seen (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind    TEXT NOT NULL,
    value   TEXT NOT NULL,
    at      BIGINT NOT NULL,
    PRIMARY KEY (user_id, kind, value)
);
CREATE INDEX seen_value ON seen (kind, value);

-- +goose Down
DROP TABLE seen;
DROP TABLE mod_log;
DROP TABLE blocks;
DROP TABLE reports;
ALTER TABLE users DROP COLUMN sanction_reason;
ALTER TABLE users DROP COLUMN closed;
ALTER TABLE users DROP COLUMN banned;
ALTER TABLE users DROP COLUMN muted_until;
ALTER TABLE users DROP COLUMN role;
