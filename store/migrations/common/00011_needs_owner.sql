-- +goose Up
-- needs_owner: the game needs an instance running it with nobody watching
-- (its clock runs, or the computer is to move): the orphans a round of
-- leases takes over. A game against the computer whose player is to move,
-- without a clock, needs none: it leaves memory when idle and stays out.
-- Rows from before start as the orphans' old condition said.
ALTER TABLE games ADD COLUMN needs_owner INTEGER NOT NULL DEFAULT 0;
UPDATE games SET needs_owner = 1 WHERE status = 'playing' AND (clock_initial > 0 OR opponent = 'computer');

-- +goose Down
ALTER TABLE games DROP COLUMN needs_owner;
