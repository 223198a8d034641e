package store

import "io/fs"

// Migrations are the embedded migrations, for the tests of package
// store_test that apply them a version at a time.
var Migrations = migrations

// UnionFS is the files of two flat folders as one, as the store applies
// a dialect's migrations and the common ones.
func UnionFS(a, b fs.FS) fs.FS { return unionFS{a, b} }
