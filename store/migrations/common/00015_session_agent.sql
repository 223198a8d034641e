-- +goose Up
-- The browser of each login, in short ("Firefox 128 on Linux"), for the
-- list of an account's logged-in browsers; '' for the logins from
-- before.
ALTER TABLE sessions ADD COLUMN agent TEXT NOT NULL DEFAULT '';
-- A spectator's chat lines by the writer's name: an account's download
-- of its data, and the erasure of its name when it is deleted.
CREATE INDEX chat_spectator_name ON chat (name) WHERE room = 'spectators';

-- +goose Down
DROP INDEX chat_spectator_name;
ALTER TABLE sessions DROP COLUMN agent;
