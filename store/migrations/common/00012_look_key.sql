-- +goose Up
-- look_key: a user name as it reads, so that no name passes for another:
-- lower case, without - and _, with rn read as m, vv as w, 1 and i as l,
-- and 0 as o (store.LookKey, which this must match). Unique; of the
-- accounts from before that read alike, the oldest keeps its key and the
-- others none (NULL, which the index lets repeat).
ALTER TABLE users ADD COLUMN look_key TEXT;
UPDATE users SET look_key = replace(replace(replace(replace(replace(replace(replace(
    lower(name), '-', ''), '_', ''), 'rn', 'm'), 'vv', 'w'), '1', 'l'), 'i', 'l'), '0', 'o');
UPDATE users SET look_key = NULL WHERE EXISTS (SELECT 1 FROM users o WHERE o.look_key = users.look_key
    AND (o.created < users.created OR (o.created = users.created AND o.id < users.id)));
CREATE UNIQUE INDEX users_look_key ON users (look_key);

-- +goose Down
DROP INDEX users_look_key;
ALTER TABLE users DROP COLUMN look_key;
