package enginebuild

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

const root = "../.."

// TestCommittedEngineCurrent fails when the engine's sources changed
// since web/static/engine was built: the browser would run other rules
// or another computer than the server's.
func TestCommittedEngineCurrent(t *testing.T) {
	stamp, err := Committed(root)
	if err != nil {
		t.Fatalf("the committed engine's stamp: %v (run go generate ./web)", err)
	}
	src, err := Sources(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if src != stamp.Sources {
		t.Fatalf("%s/engine.wasm.gz was built from other sources than these (stamp %.12s, now %.12s): run go generate ./web", Dir, stamp.Sources, src)
	}
	gz, err := os.ReadFile(filepath.Join(root, Dir, "engine.wasm.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if len(gz) != stamp.Gzip || len(gz) > MaxGzip {
		t.Fatalf("engine.wasm.gz is %d bytes; its stamp says %d, and at most %d are allowed", len(gz), stamp.Gzip, MaxGzip)
	}
}

// TestBuildReproduces builds the engine as go generate does: within the
// size allowed, and, with the Go version of the committed build, the very
// same bytes (the build is reproducible, so the committed file is what its
// sources make).
func TestBuildReproduces(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the engine for js/wasm (about 15 s)")
	}
	b, err := Make(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if b.Stamp.Gzip > MaxGzip {
		t.Errorf("the engine is %d bytes gzipped, more than %d", b.Stamp.Gzip, MaxGzip)
	}
	stamp, err := Committed(root)
	if err != nil {
		t.Fatal(err)
	}
	if stamp.Go != b.Stamp.Go {
		t.Skipf("the committed engine was built by %s, this is %s: its bytes may differ", stamp.Go, b.Stamp.Go)
	}
	if b.Stamp != stamp {
		t.Errorf("a build now gives %+v, the committed one is %+v: run go generate ./web", b.Stamp, stamp)
	}
}
