-- +goose Up
-- Games given up by the server (status 'aborted') are neither listed nor
-- resumed: the index of unfinished games holds the waiting and playing
-- ones only, so that aborted games do not swell it.
DROP INDEX games_unfinished;
CREATE INDEX games_unfinished ON games (status) WHERE status = 'waiting' OR status = 'playing';

-- +goose Down
DROP INDEX games_unfinished;
CREATE INDEX games_unfinished ON games (status) WHERE status <> 'finished';
