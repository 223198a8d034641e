-- +goose Up
-- The one-time links that set a new password: the hash of each link's
-- random token (never the token), for an account, until expires (ms
-- since the epoch). via says who made it: 'mail' (the account asked) or
-- 'admin' (magneton admin reset-link). A link is deleted when it is
-- used, with the account's other links.
CREATE TABLE password_resets (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created    BIGINT NOT NULL,
    expires    BIGINT NOT NULL,
    via        TEXT NOT NULL
);
CREATE INDEX password_resets_user ON password_resets (user_id);

-- +goose Down
DROP TABLE password_resets;
