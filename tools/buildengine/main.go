// Command buildengine builds the browser's engine into
// web/static/engine (package internal/enginebuild): run by
// `go generate ./web` from the module's root, or from anywhere in it.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/magneton-games/magneton/internal/enginebuild"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "buildengine:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx := context.Background()
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return fmt.Errorf("go env GOMOD: %w", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	b, err := enginebuild.Make(ctx, root)
	if err != nil {
		return err
	}
	if b.Stamp.Gzip > enginebuild.MaxGzip {
		return fmt.Errorf("the engine is %d bytes gzipped, more than the %d allowed", b.Stamp.Gzip, enginebuild.MaxGzip)
	}
	if err := b.Write(root); err != nil {
		return err
	}
	fmt.Printf("%s: engine.wasm.gz %d bytes (%d plain), built by %s\n", enginebuild.Dir, b.Stamp.Gzip, b.Stamp.Size, b.Stamp.Go)
	return nil
}
