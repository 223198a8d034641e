-- +goose Up
-- computer_place: where a game's computer thinks: '' or 'server' for the
-- play server's own search, 'browser' for its player's browser, whose
-- engine plays the computer's moves and sends them to the server, which
-- checks them as any move. Rows from before are the server's.
ALTER TABLE games ADD COLUMN computer_place TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE games DROP COLUMN computer_place;
