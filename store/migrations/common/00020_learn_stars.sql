-- +goose Up
-- stars: the stars won at each stage of a game's lessons, a JSON object
-- {"<lesson id>:<stage>": 1 to 3}, the best of each kept (a drill done
-- again with fewer moves raises them, never lowers them). Rows from
-- before have none.
ALTER TABLE learn_progress ADD COLUMN stars TEXT NOT NULL DEFAULT '{}';

-- +goose Down
ALTER TABLE learn_progress DROP COLUMN stars;
