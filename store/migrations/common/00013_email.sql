-- +goose Up
-- An account's e-mail address, optional ('' for none), for the links
-- that set a new password; email_key is its lower-case form, which the
-- request for a link looks up. Addresses need not be unique: refusing a
-- second account one would tell that it is somebody's.
ALTER TABLE users ADD COLUMN email TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN email_key TEXT NOT NULL DEFAULT '';
CREATE INDEX users_email ON users (email_key) WHERE email_key <> '';

-- +goose Down
DROP INDEX users_email;
ALTER TABLE users DROP COLUMN email_key;
ALTER TABLE users DROP COLUMN email;
